// How kube-apiserver 1.34.4 validates the specs of batch/v1 Jobs and CronJobs beyond their pod templates
// (validateJobSpec, ValidateJobSpecUpdate, validateCronJobSpec): counts and deadlines, `managedBy`, the
// completion mode and what an indexed Job allows (per-index backoff, failed indexes, success policies and
// their index lists), pod failure policy rules (actions, exit codes in order and without 0 for `In`,
// condition patterns, whose status defaults to True), the pod replacement policy, an indexed Job's last
// hostname, the fields an update may not change; a CronJob's schedule (as robfig/cron parses it, TZ in it), time zone, concurrency
// policy, deadline, history limits, job template selector and name length. kubekit checked four counts
// and the restart policy. The expected answers are the reference's, recorded in fixtures/jobSpec.json; to
// record them again: KUBEKIT_RECORD_JOBS=1 npx mocha test/hostile/jobSpec.test.ts.
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { describeOnBothServers, type Send } from './sender.js';

const fixtureURL = new URL('./fixtures/jobSpec.json', import.meta.url);
const tpl = { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x:1' }] } };
const indexed = { template: tpl, completionMode: 'Indexed', completions: 3 };
const exitRule = (onExitCodes: Record<string, unknown>, action = 'FailJob'): Record<string, unknown> => ({ podFailurePolicy: { rules: [{ action, onExitCodes }] } });

const jobs: Record<string, unknown>[] = [
  { template: tpl },
  { template: tpl, parallelism: -1, completions: -2, activeDeadlineSeconds: 0, backoffLimit: -1 },
  { template: tpl, completionMode: 'Weird' },
  { template: tpl, completionMode: 'Indexed' },
  { ...indexed, backoffLimitPerIndex: 1, maxFailedIndexes: 5 },
  { template: tpl, backoffLimitPerIndex: 1, maxFailedIndexes: 1 },
  { template: tpl, maxFailedIndexes: 1 },
  { template: tpl, completionMode: 'Indexed', completions: 200000, parallelism: 200000 },
  { template: tpl, completionMode: 'Indexed', completions: 200000, parallelism: 20000, backoffLimitPerIndex: 1 },
  { template: tpl, ttlSecondsAfterFinished: -5 },
  { template: tpl, ...exitRule({ operator: 'In', values: [0] }) },
  { template: tpl, ...exitRule({ operator: 'In', values: [3, 1, 3] }) },
  { template: tpl, ...exitRule({ operator: 'Between', values: [] }) },
  { template: tpl, ...exitRule({ containerName: 'ghost', operator: 'NotIn', values: [1] }) },
  { template: tpl, ...exitRule({ operator: 'In', values: [1] }, 'FailIndex') },
  { ...indexed, backoffLimitPerIndex: 1, ...exitRule({ operator: 'In', values: [1] }, 'FailIndex') },
  { template: tpl, podFailurePolicy: { rules: [{ action: 'Nope', onPodConditions: [{ type: 'DisruptionTarget' }] }] } },
  { template: tpl, podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'bad type!', status: 'Maybe' }], onExitCodes: { operator: 'In', values: [1] } }] } },
  { template: tpl, podFailurePolicy: { rules: [{ action: 'Count' }] } },
  { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'x:1' }] } }, podFailurePolicy: { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] } },
  { template: tpl, successPolicy: { rules: [{ succeededCount: 1 }] } },
  { ...indexed, successPolicy: { rules: [{ succeededIndexes: '0-5', succeededCount: 10 }] } },
  { ...indexed, successPolicy: { rules: [{ succeededIndexes: '1,0' }, { succeededIndexes: 'a' }, { succeededIndexes: '0-1-2' }, {}] } },
  { ...indexed, successPolicy: { rules: [] } },
  { ...indexed, successPolicy: { rules: [{ succeededIndexes: '0,2', succeededCount: 2 }] } },
  { template: tpl, podReplacementPolicy: 'Whenever' },
  { template: tpl, podReplacementPolicy: 'TerminatingOrFailed', ...exitRule({ operator: 'In', values: [1] }) },
  { template: tpl, managedBy: 'x' },
  { template: tpl, managedBy: 'Bad_Host/path' },
  { template: tpl, managedBy: 'example.com/controller' },
  { template: tpl, suspend: true, parallelism: 0 },
  { template: { spec: { restartPolicy: 'Always', containers: [{ name: 'c', image: 'x:1' }] } } },
];

const cronJobs: [string, Record<string, unknown>][] = [
  ['cj', { schedule: '*/5 * * * *' }],
  ['cj', { schedule: 'not a schedule' }],
  ['cj', { schedule: '@hourly', timeZone: 'Mars/Olympus' }],
  ['cj', { schedule: '@hourly', timeZone: 'America/New_York' }],
  ['cj', { schedule: '@hourly', timeZone: '' }],
  ['cj', { schedule: '@hourly', timeZone: 'Local' }],
  ['cj', { schedule: '@hourly', timeZone: '../etc/passwd' }],
  ['cj', { schedule: 'TZ=UTC * * * * *' }],
  ['cj', { schedule: 'CRON_TZ=Bad/Zone * * * * *' }],
  ['cj', { schedule: '* * * * *', concurrencyPolicy: 'Sometimes', startingDeadlineSeconds: -1, successfulJobsHistoryLimit: -1, failedJobsHistoryLimit: -2 }],
  ['cj', { schedule: '* * * * *', jobTemplateSpec: { selector: { matchLabels: { a: 'b' } }, manualSelector: true, parallelism: -1 } }],
  ['a-cronjob-name-that-is-fifty-three-characters-long-xyz', { schedule: '* * * * *' }],
  // robfig/cron's ParseStandard and its words.
  ...['0 25 * * *', '*/0 * * * *', '1-2-3 * * * *', '* * * 13 *', '* * * * 7', '* * * JAN-DEC MON-FRI', '5-1 * * * *', '*/5/2 * * * *', 'x * * * *', '-1 * * * *',
    '0 0 1,15 * *', '@every 5m', '@every 5d', '@every x', '@weekly', '@sometimes'].map((schedule): [string, Record<string, unknown>] => ['cj', { schedule }]),
];

const jobUpdates: [Record<string, unknown>, Record<string, unknown>][] = [
  [{ template: tpl }, { spec: { parallelism: 4, activeDeadlineSeconds: 30, suspend: true } }],
  [{ template: tpl }, { spec: { completions: 5 } }],
  [{ template: tpl }, { spec: { backoffLimit: 1, ttlSecondsAfterFinished: 5, podFailurePolicy: { rules: [] } } }],
  [{ template: tpl }, { spec: { completionMode: 'Indexed' } }],
  [{ template: tpl }, { spec: { managedBy: 'example.com/other' } }],
  [{ ...indexed, backoffLimitPerIndex: 1 }, { spec: { backoffLimitPerIndex: 2 } }],
  [{ ...indexed }, { spec: { successPolicy: { rules: [{ succeededCount: 1 }] } } }],
];

async function run(s: Send, backend: 'kubekit' | 'reference'): Promise<void> {
  const ns = 'jobspec';
  const created = await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
  expect(created.status, created.text).to.equal(201);
  const answers: string[] = [];
  const answer = (status: number, text: string): string => `${status}${status >= 400 ? ` ${String((JSON.parse(text) as { message: string }).message)}` : ''}`;
  for (const [i, spec] of jobs.entries()) {
    const a = await s('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, JSON.stringify({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: `j${i}` }, spec }));
    answers.push(`job ${JSON.stringify(spec)}: ${answer(a.status, a.text)}`);
  }
  for (const [i, [name, cron]] of cronJobs.entries()) {
    const { jobTemplateSpec, ...spec } = cron;
    const body = { ...spec, jobTemplate: { spec: { template: tpl, ...(jobTemplateSpec as Record<string, unknown> | undefined) } } };
    const a = await s('POST', `/apis/batch/v1/namespaces/${ns}/cronjobs`, JSON.stringify({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: name === 'cj' ? `cj${i}` : name }, spec: body }));
    answers.push(`cronjob ${JSON.stringify(cron)}: ${answer(a.status, a.text)}`);
  }
  for (const [i, [spec, patch]] of jobUpdates.entries()) {
    const b = await s('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, JSON.stringify({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: `u${i}` }, spec }));
    expect(b.status, b.text).to.equal(201);
    const a = await s('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/u${i}`, JSON.stringify(patch), 'application/merge-patch+json');
    answers.push(`job update by ${JSON.stringify(patch)}: ${answer(a.status, a.text)}`);
  }
  if (backend === 'reference' && process.env.KUBEKIT_RECORD_JOBS === '1') writeFileSync(fixtureURL, JSON.stringify({ answers }, null, 1) + '\n');
  const fixture = JSON.parse(readFileSync(fixtureURL, 'utf8')) as { answers: string[] };
  expect(answers).to.have.length(fixture.answers.length);
  answers.forEach((a, i) => expect(a, `answer ${i}`).to.equal(fixture.answers[i]));
}

describeOnBothServers('Job and CronJob specs', run);
