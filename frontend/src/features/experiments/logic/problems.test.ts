import { describe, expect, it } from 'vitest';
import { placeProblems, problemsOf } from './problems';

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
