import { expect } from 'chai';
import { InvalidError, KubeError, invalid, required, statusReasonCodes } from '@kubekit/core';

describe('KubeError', () => {
  it('derives the HTTP code from the reason table', () => {
    expect(new KubeError('NotFound', 'x').code).to.equal(404);
    expect(new KubeError('Expired', 'x').code).to.equal(410);
    expect(new KubeError('Invalid', 'x').code).to.equal(422);
    expect(new KubeError('TooManyRequests', 'x').code).to.equal(429);
    expect(statusReasonCodes.Conflict).to.equal(409);
  });
  it('writes the apiserver messages for NotFound, AlreadyExists and Conflict', () => {
    const gr = { group: 'stable.example.com', resource: 'shirts' };
    expect(KubeError.notFound(gr, 'example1').message).to.equal('shirts.stable.example.com "example1" not found');
    expect(KubeError.alreadyExists({ group: '', resource: 'configmaps' }, 'c').message).to.equal('configmaps "c" already exists');
    expect(KubeError.conflict(gr, 'e', 'the object has been modified; please apply your changes to the latest version and try again').message)
      .to.equal('Operation cannot be fulfilled on shirts.stable.example.com "e": the object has been modified; please apply your changes to the latest version and try again');
  });
  it('builds an Invalid error with one cause per field error, as apierrors.NewInvalid', () => {
    const err = KubeError.invalid({ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' }, 'shirts.stable.example.com', [
      invalid('spec.versions[0].selectableFields[0].jsonPath', '.spec.x', 'is an invalid path: does not refer to a field'),
      required('spec.names.kind'),
    ]);
    expect(err).to.be.instanceOf(InvalidError);
    expect(err.message).to.equal('CustomResourceDefinition.apiextensions.k8s.io "shirts.stable.example.com" is invalid: ' +
      '[spec.versions[0].selectableFields[0].jsonPath: Invalid value: ".spec.x": is an invalid path: does not refer to a field, spec.names.kind: Required value]');
    expect(err.causes).to.deep.equal([
      { reason: 'FieldValueInvalid', message: 'Invalid value: ".spec.x": is an invalid path: does not refer to a field', field: 'spec.versions[0].selectableFields[0].jsonPath' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.names.kind' },
    ]);
  });
  it('round-trips through a Status body', () => {
    const err = KubeError.notFound({ group: '', resource: 'pods' }, 'p');
    const status = err.toStatus();
    expect(status).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "p" not found', reason: 'NotFound',
      // StatusDetails fields are omitempty: the core group's "" is left out (kube-apiserver 1.34, test/differential).
      details: { name: 'p', kind: 'pods' }, code: 404,
    });
    const back = KubeError.fromStatus(status);
    expect(back.reason).to.equal('NotFound');
    expect(back.code).to.equal(404);
    expect(back.message).to.equal('pods "p" not found');
  });
  it('leaves empty details fields out of the Status, as Go\'s omitempty does', () => {
    const status = KubeError.invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [required('fieldManager', 'is required for apply patch')]).toStatus();
    expect(status.details).to.deep.equal({ group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }] });
  });
  it('makes an error from a body that is not a Status, using the HTTP code', () => {
    const err = KubeError.fromStatus('<html>', 503);
    expect(err.reason).to.equal('ServiceUnavailable');
    expect(err.code).to.equal(503);
    expect(err.message).to.match(/status code 503/);
    expect(KubeError.fromStatus({ reason: 'Bogus', code: 418 }).reason).to.equal('Unknown');
  });
});
