// The autoscaling/v1 conversion of a HorizontalPodAutoscaler (pkg/apis/autoscaling/v1/conversion.go), and the
// encoding/json facts it rests on (marshalAsGo, unmarshalAsGo). The cases of `hpaToV1` are upstream's
// TestConvert_autoscaling_HorizontalPodAutoscalerSpec_To_v1_HorizontalPodAutoscalerSpec (conversion_test.go);
// the texts of the annotations are kube-apiserver 1.34.4's (test/hostile/horizontalPodAutoscalers.test.ts).
import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import { hpaFromV1, hpaToV1 } from '../src/autoscalingConversion.js';
import { marshalAsGo, unmarshalAsGo } from '../src/builtinGoJSON.js';

type Json = Record<string, unknown>;
const hpa = (apiVersion: string, spec: Json, annotations?: Record<string, string>): KubeObject => ({ apiVersion, kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', ...(annotations === undefined ? {} : { annotations }) }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, ...spec } });
const cpuUtilization = (n: number): Json => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } } });
const cpuValue = { type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '300m' } } };

describe('hpaToV1', () => {
  const cases: [string, Json[], number | undefined, string | undefined][] = [
    ['TestConversionWithCPUAverageValueAndUtilizationBoth1', [cpuValue, cpuUtilization(70)], 70, '[{"type":"Resource","resource":{"name":"cpu","targetAverageValue":"300m"}}]'],
    ['TestConversionWithoutMetrics', [], undefined, undefined],
    ['TestConversionWithCPUUtilizationOnly', [cpuUtilization(60)], 60, undefined],
  ];
  for (const [name, metrics, target, others] of cases) {
    it(`shows the first CPU utilization as targetCPUUtilizationPercentage, the other metrics in an annotation (${name})`, () => {
      const v1 = hpaToV1(hpa('autoscaling/v2', { minReplicas: 1, maxReplicas: 3, metrics }));
      expect([v1.spec, v1.metadata.annotations]).to.deep.equal([
        { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, ...(target === undefined ? {} : { targetCPUUtilizationPercentage: target }) },
        others === undefined ? undefined : { 'autoscaling.alpha.kubernetes.io/metrics': others },
      ]);
    });
  }

  it('writes the behavior as the internal Go type without json tags, every field, nil as null', () => {
    const v1 = hpaToV1(hpa('autoscaling/v2', { maxReplicas: 3, behavior: { scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } } }));
    expect(v1.metadata.annotations).to.deep.equal({ 'autoscaling.alpha.kubernetes.io/behavior': '{"ScaleUp":null,"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":60}],"Tolerance":null}}' });
  });

  it('drops the round-trip annotations an object carries before writing its own', () => {
    const v1 = hpaToV1(hpa('autoscaling/v2', { maxReplicas: 3, metrics: [cpuUtilization(50)] }, { 'autoscaling.alpha.kubernetes.io/metrics': '[]', 'autoscaling.alpha.kubernetes.io/scale-up-tolerance': '1', team: 'x' }));
    expect(v1.metadata.annotations).to.deep.equal({ team: 'x' });
  });
});

describe('hpaFromV1', () => {
  it('gives an autoscaler without metrics the CPU at 80%', () => {
    expect(hpaFromV1(hpa('autoscaling/v1', { maxReplicas: 3 })).spec).to.deep.equal({ scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, metrics: [cpuUtilization(80)] });
  });

  it('puts the annotation\'s metrics first, then the CPU target, and drops the annotations', () => {
    const internal = hpaFromV1(hpa('autoscaling/v1', { maxReplicas: 3, targetCPUUtilizationPercentage: 10 }, { 'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Pods","pods":{"metricName":"x","targetAverageValue":"1"}}]' }));
    expect([internal.spec, internal.metadata.annotations]).to.deep.equal([{ scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, metrics: [{ type: 'Pods', pods: { metric: { name: 'x' }, target: { type: 'AverageValue', averageValue: '1' } } }, cpuUtilization(10)] }, undefined]);
  });

  it('ignores an annotation Go\'s json.Unmarshal refuses, and a behavior that sets neither direction', () => {
    for (const [metrics, behavior] of [['{', '[]'], ['[{"type":"Pods","pods":{"targetAverageValue":"x"}}]', '{"ScaleUp":null,"ScaleDown":null}'], ['[{"type":5}]', '{"ScaleUp":{"Policies":[{"Value":"1"}]}}']]) {
      const internal = hpaFromV1(hpa('autoscaling/v1', { maxReplicas: 3 }, { 'autoscaling.alpha.kubernetes.io/metrics': metrics, 'autoscaling.alpha.kubernetes.io/behavior': behavior }));
      expect(internal.spec, metrics).to.deep.equal({ scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, metrics: [cpuUtilization(80)] });
    }
  });
});

describe('marshalAsGo and unmarshalAsGo', () => {
  const specs = { struct: 'io.k8s.api.autoscaling.v1.MetricSpec', list: true };

  it('writes members in declaration order, zero values of plain fields, canonical quantities', () => {
    expect(marshalAsGo([{ object: { averageValue: '1000m', metricName: 'm', target: { name: 'i', kind: 'Ingress' } }, type: 'Object' }], specs))
      .to.equal('[{"type":"Object","object":{"target":{"kind":"Ingress","name":"i"},"metricName":"m","targetValue":"0","averageValue":"1"}}]');
  });

  it('reads keys exactly or case-folded, the last member of a field winning and structs merging', () => {
    expect(unmarshalAsGo('[{"TYPE":"Pods","pods":{"metricName":"a"},"Pods":{"targetAverageValue":2,"MetricName":"b"},"unknown":[1]}]', specs))
      .to.deep.equal([{ type: 'Pods', pods: { metricName: 'b', targetAverageValue: '2' } }]);
  });

  it('refuses what encoding/json refuses: syntax, types, integers it does not parse, quantities', () => {
    for (const text of ['[', '{}', '[{"type":1}]', '[{"resource":{"targetAverageUtilization":1.0}}]', '[{"resource":{"targetAverageUtilization":2147483648}}]', '[{"pods":{"targetAverageValue":"1x"}}]']) {
      expect(unmarshalAsGo(text, specs), text).to.equal(undefined);
    }
    expect(unmarshalAsGo('null', specs)).to.equal(null);
  });
});
