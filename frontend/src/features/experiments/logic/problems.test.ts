import { describe, expect, it } from 'vitest';
import { campaignProblemsOf, placeProblems, problemsOf } from './problems';

// 422 details as the backend sends them (POST /api/runs with a lab and overrides).
const detail = {
  cc: { loc: ['body', 'flows', '0', 'cc'], msg: "flows.0.cc: is not a congestion control of tcp; allowed: cubic, bbr, reno (got 'westwood')" },
  either: { loc: ['body', 'flows', '0'], msg: 'flows.0: give exactly one of size_bytes or duration_s' },
  size: { loc: ['body', 'flows', '0', 'size_bytes'], msg: 'flows.0.size_bytes: Input should be greater than or equal to 1 (got -5)' },
  rate: { loc: ['body', 'path', 'lan', 'rate_mbps'], msg: 'path.lan.rate_mbps: Input should be greater than 0 (got -1)' },
  syntax: { loc: ['body'], msg: "--set 'nonsense': expected dotted.path=value" },
  unknown: { loc: ['body', 'foo'], msg: 'foo: is not a known field' },
};

const targets = [
  { name: 'cc', paths: ['flows.0.cc'] },
  { name: 'size', paths: ['flows.0.size_bytes', 'flows.0.duration_s'] },
  { name: 'extra', paths: ['path.lan'] },
];

describe('problemsOf', () => {
  it('turns each loc into a dotted field without the body', () => {
    expect(problemsOf([detail.size, detail.syntax])).toEqual([
      { field: 'flows.0.size_bytes', message: detail.size.msg },
      { field: '', message: detail.syntax.msg },
    ]);
  });
});

describe('placeProblems', () => {
  it('puts a problem beside the control of its field', () => {
    expect(placeProblems(problemsOf([detail.size]), targets)).toEqual({ byTarget: { size: [detail.size.msg] }, general: [] });
  });

  it('puts a check across fields beside the control of the field it refuses', () => {
    expect(placeProblems(problemsOf([detail.cc]), targets).byTarget.cc).toEqual([detail.cc.msg]);
  });

  it('keeps a check of a whole object general', () => {
    expect(placeProblems(problemsOf([detail.either]), targets)).toEqual({ byTarget: {}, general: [detail.either.msg] });
  });

  it('puts a problem inside an object beside the control that sets the object', () => {
    expect(placeProblems(problemsOf([detail.rate]), targets).byTarget.extra).toEqual([detail.rate.msg]);
  });

  it('keeps problems no control owns general, in order', () => {
    expect(placeProblems(problemsOf([detail.syntax, detail.unknown]), targets)).toEqual({
      byTarget: {},
      general: [detail.syntax.msg, detail.unknown.msg],
    });
  });
});

// 422 details as the backend sends them for POST /api/campaigns.
const campaignDetail = {
  emptyValues: {
    loc: ['body', 'matrix', 'flows', '0', 'cc'],
    msg: 'matrix.flows.0.cc: List should have at least 1 item after validation, not 0 (got [])',
  },
  iterations: { loc: ['body', 'iterations'], msg: 'iterations: Input should be greater than or equal to 1 (got 0)' },
  reserved: { loc: ['body', 'set', 'seed'], msg: "set.seed: the campaign derives each run's seed from its own seed and the iteration" },
  configuration: {
    loc: ['body'],
    msg: "matrix flows.0.cc=westwood (configuration 1): flows.0.cc: is not a congestion control of tcp; allowed: cubic, bbr, reno (got 'westwood')",
  },
  inTunnel: {
    loc: ['body'],
    msg: 'matrix tunnel.k=5, flows.0.cc=bbr (configuration 1): tunnel: k must be <= z (a repair covers the last z sources), got k=5 z=1',
  },
  hystart: {
    loc: ['body'],
    msg: 'matrix flows.0.cc=bbr (configuration 1): flows.0.hystart: applies to transport tcp with cc cubic only; give null for the others (got False)',
  },
  host: {
    loc: ['body'],
    msg: 'configuration 1 (path.link_backend=netem): path.link_backend: netem cannot run on this host: the kernel has no sch_netem',
  },
  set: { loc: ['body'], msg: 'set flows.5.size_bytes=4: flows.5: no such list item (the list has 1; index 1 appends one)' },
  base: { loc: ['body', 'scenario'], msg: 'scenario: flows.0.size_bytes: Input should be greater than or equal to 1 (got -4)' },
  noLab: { loc: ['body', 'scenario'], msg: "scenario: no scenario file 'nolab' in /labs or /labs" },
};

describe('campaignProblemsOf', () => {
  const paths = { set: { 'flows.0.size_bytes': -4, 'flows.5.size_bytes': 4 }, matrix: { 'flows.0.cc': [], 'tunnel.k': [5], 'path.link_backend': [] } };
  const campaignTargets = [
    { name: 'lab', paths: ['scenario'] },
    { name: 'fixed', paths: ['set.flows.0.size_bytes', 'set.flows.5.size_bytes', 'set.seed'] },
    { name: 'cc', paths: ['matrix.flows.0.cc'] },
    { name: 'k', paths: ['matrix.tunnel.k'] },
    { name: 'backend', paths: ['matrix.path.link_backend'] },
    { name: 'iterations', paths: ['iterations'] },
  ];
  const place = (...problems: { loc: string[]; msg: string }[]) => placeProblems(campaignProblemsOf(problems, paths), campaignTargets);

  it('keeps the fields the API names in loc', () => {
    expect(place(campaignDetail.emptyValues, campaignDetail.iterations, campaignDetail.reserved).byTarget).toEqual({
      cc: [campaignDetail.emptyValues.msg],
      iterations: [campaignDetail.iterations.msg],
      fixed: [campaignDetail.reserved.msg],
    });
  });

  it('puts a configuration that makes a bad scenario beside the matrix parameter touching its field', () => {
    expect(place(campaignDetail.configuration).byTarget).toEqual({ cc: [campaignDetail.configuration.msg] });
    expect(place(campaignDetail.inTunnel).byTarget).toEqual({ k: [campaignDetail.inTunnel.msg] });
    expect(place(campaignDetail.host).byTarget).toEqual({ backend: [campaignDetail.host.msg] });
  });

  it('puts problems of the fixed overrides beside them', () => {
    expect(place(campaignDetail.set, campaignDetail.base).byTarget).toEqual({ fixed: [campaignDetail.set.msg, campaignDetail.base.msg] });
  });

  it('keeps general what no control touches, and names a missing lab at the lab', () => {
    expect(place(campaignDetail.hystart)).toEqual({ byTarget: {}, general: [campaignDetail.hystart.msg] });
    expect(place(campaignDetail.noLab).byTarget).toEqual({ lab: [campaignDetail.noLab.msg] });
  });
});
