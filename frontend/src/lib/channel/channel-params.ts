import type { ChannelConfig, ChannelKind, LossInterval } from '../codec';

/** Everything a lab needs to build a channel model: flat, so that it maps one-to-one onto the URL. */
export interface ChannelParams {
  /** The model; each reads only its own fields below (channelFieldsByKind). */
  kind: ChannelKind;
  /** Seeds the model's random draws: the same seed gives the same losses. */
  seed: number;
  /** Time between two packets on the wire, in ms: time-driven models lose by send time. */
  packetMs: number;
  /** Bernoulli: the probability of losing each packet. */
  loss: number;
  /** Gilbert-Elliott: the probability of going from the good state to the bad one, per packet or step. */
  p: number;
  /** Gilbert-Elliott: the probability of going from the bad state back to the good one. */
  q: number;
  /** Gilbert-Elliott per packet: the loss probability in the good state. */
  lossGood: number;
  /** Gilbert-Elliott per packet: the loss probability in the bad state. */
  lossBad: number;
  /** Gilbert-Elliott in time: how long each state lasts before the next draw, in ms. */
  stepMs: number;
  /** Outage: the time from one outage to the next, in ms. */
  periodMs: number;
  /** Outage: how long each outage lasts, in ms. */
  durationMs: number;
  /** Outage: when the first outage starts, in ms. */
  phaseMs: number;
  /** Outage: each outage starts up to this much later, uniformly drawn, in ms. */
  jitterMs: number;
  /** Loss intervals in ms as "start-end,start-end", e.g. "10-25,100-112.5". */
  trace: string;
  /** Trace: the trace repeats with this period in ms; 0 plays it once. */
  tracePeriodMs: number;
}

export const channelKindLabels: Record<ChannelKind, string> = {
  perfect: 'Perfect (no loss)',
  bernoulli: 'Bernoulli (independent losses)',
  ge_packet: 'Gilbert-Elliott per packet',
  ge_time: 'Gilbert-Elliott per time step',
  outage: 'Periodic outage',
  trace: 'Loss trace replay',
};

export const defaultChannelParams: ChannelParams = {
  kind: 'bernoulli',
  seed: 1,
  packetMs: 1,
  loss: 0.1,
  p: 0.01,
  q: 0.167,
  lossGood: 0,
  lossBad: 1,
  stepMs: 10,
  periodMs: 258,
  durationMs: 15.2,
  phaseMs: 0,
  jitterMs: 0,
  trace: '5-9,20-21',
  tracePeriodMs: 0,
};

/** The parameters each kind of model reads, in the order a form shows them. */
export const channelFieldsByKind: Record<ChannelKind, (keyof ChannelParams)[]> = {
  perfect: [],
  bernoulli: ['loss'],
  ge_packet: ['p', 'q', 'lossGood', 'lossBad'],
  ge_time: ['p', 'q', 'stepMs'],
  outage: ['periodMs', 'durationMs', 'phaseMs', 'jitterMs'],
  trace: ['trace', 'tracePeriodMs'],
};

/** parseTrace reads "start-end,start-end" (ms) into loss intervals; it throws naming the bad interval. */
export function parseTrace(trace: string): LossInterval[] {
  return trace
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const match = /^(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)$/.exec(part);
      if (!match) {
        throw new Error(`The trace interval "${part}" is not of the form start-end in ms, e.g. 10-25.`);
      }
      return { startMs: Number(match[1]), endMs: Number(match[2]) };
    });
}

/** toChannelConfig gives the codec's channel configuration for these parameters. */
export function toChannelConfig(params: ChannelParams): ChannelConfig {
  const { seed } = params;
  switch (params.kind) {
    case 'perfect':
      return { kind: 'perfect' };
    case 'bernoulli':
      return { kind: 'bernoulli', seed, loss: params.loss };
    case 'ge_packet':
      return { kind: 'ge_packet', seed, p: params.p, q: params.q, lossGood: params.lossGood, lossBad: params.lossBad };
    case 'ge_time':
      return { kind: 'ge_time', seed, p: params.p, q: params.q, stepMs: params.stepMs };
    case 'outage': {
      const { periodMs, durationMs, phaseMs, jitterMs } = params;
      return { kind: 'outage', seed, periodMs, durationMs, phaseMs, jitterMs };
    }
    case 'trace':
      return { kind: 'trace', intervals: parseTrace(params.trace), tracePeriodMs: params.tracePeriodMs };
  }
}

/** What is wrong with each field of a channel, one sentence each; no key when nothing is. */
export type ChannelProblems = Partial<Record<keyof ChannelParams, string[]>>;

/** The codec's longest time, in ms (codec/src/channel.c, MAX_TIME_MS). */
const maxTimeMs = 1e12;
/** The codec rounds times to whole µs; a positive time must be at least 1 µs. */
const microseconds = (ms: number) => Math.round(ms * 1000);

/**
 * channelProblems refuses what the codec's channel refuses (swf_channel_config_check), field by
 * field and for the model's own fields only, so that a form can say it beside the field instead
 * of the codec failing on the whole configuration.
 */
export function channelProblems(params: ChannelParams): ChannelProblems {
  const problems: ChannelProblems = {};
  const refuse = (field: keyof ChannelParams, sentence: string) => {
    problems[field] = [sentence];
  };
  const isTime = (ms: number) => Number.isFinite(ms) && ms >= 0 && ms <= maxTimeMs;
  const isPositiveTime = (ms: number) => isTime(ms) && microseconds(ms) >= 1;
  if (!Number.isInteger(params.seed) || params.seed < 0 || params.seed > 4294967295) {
    refuse('seed', 'The seed must be a whole number from 0 to 4294967295.');
  }
  if (!isPositiveTime(params.packetMs)) refuse('packetMs', 'The packet spacing must be a time of at least 0.001 ms.');
  for (const field of channelFieldsByKind[params.kind]) {
    const value = params[field];
    if (typeof value !== 'number') continue;
    if (['loss', 'p', 'q', 'lossGood', 'lossBad'].includes(field) && !(value >= 0 && value <= 1)) {
      refuse(field, `${channelFieldNames[field]} must be a probability from 0 to 1.`);
    }
  }
  if (params.kind === 'ge_time' && !isPositiveTime(params.stepMs)) refuse('stepMs', 'The step must be a time of at least 0.001 ms.');
  if (params.kind === 'outage') {
    const { periodMs, durationMs, phaseMs, jitterMs } = params;
    if (!isPositiveTime(periodMs)) refuse('periodMs', 'The period must be a time of at least 0.001 ms.');
    else if (!isTime(durationMs) || microseconds(durationMs) > microseconds(periodMs)) {
      refuse('durationMs', `The outage duration must be a time from 0 to the period (${periodMs} ms).`);
    } else if (!isTime(jitterMs) || microseconds(jitterMs) > microseconds(periodMs) - microseconds(durationMs)) {
      refuse('jitterMs', `The jitter must be a time from 0 to the period minus the duration (${Number((periodMs - durationMs).toFixed(3))} ms).`);
    }
    if (!isTime(phaseMs)) refuse('phaseMs', 'The first outage must start at a time of at least 0 ms.');
  }
  if (params.kind === 'trace') {
    let intervals: LossInterval[] = [];
    try {
      intervals = parseTrace(params.trace);
    } catch (error) {
      refuse('trace', (error as Error).message);
    }
    const disorder = intervals.findIndex(
      (interval, index) =>
        !isTime(interval.endMs) ||
        microseconds(interval.startMs) >= microseconds(interval.endMs) ||
        (index > 0 && microseconds(interval.startMs) < microseconds(intervals[index - 1].endMs)),
    );
    if (disorder >= 0) {
      const { startMs, endMs } = intervals[disorder];
      refuse('trace', `The loss interval ${startMs}-${endMs} must end after it starts and start after the one before it ends.`);
    }
    const lastEndMs = intervals.at(-1)?.endMs ?? 0;
    const period = params.tracePeriodMs;
    if (!isTime(period) || (period > 0 && (!isPositiveTime(period) || microseconds(period) < microseconds(lastEndMs)))) {
      refuse('tracePeriodMs', `The trace period must be 0 (play the trace once) or at least the last interval's end (${lastEndMs} ms).`);
    }
  }
  return problems;
}

/** How the sentences above name each parameter. */
const channelFieldNames: Partial<Record<keyof ChannelParams, string>> = {
  loss: 'The loss probability',
  p: 'p',
  q: 'q',
  lossGood: 'The loss in the good state',
  lossBad: 'The loss in the bad state',
};
