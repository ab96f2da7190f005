import { describe, expect, it } from 'vitest';
import { addressParam, inAddress, pageNames, paths, renamedAddress, requestedPage } from './paths';

describe('requestedPage', () => {
  it('reads the page the address names, the FEC lab when it names none', () => {
    expect(requestedPage('?lab=studies&study=kuhn2021')).toEqual({ page: 'studies' });
    expect(requestedPage('')).toEqual({ page: 'fec' });
    expect(requestedPage('?lab=')).toEqual({ page: 'fec' });
  });

  it('opens a page by a former name, saying which', () => {
    expect(requestedPage('?lab=class')).toEqual({ page: 'sign-in', formerName: 'class' });
    expect(renamedAddress('sign-in', '?lab=class&x=1')).toBe('?lab=sign-in&x=1');
  });

  it('gives a name that is no page back as unknown, rather than some other page', () => {
    expect(requestedPage('?lab=signin')).toEqual({ unknown: 'signin' });
    expect(requestedPage('?lab=FEC')).toEqual({ unknown: 'FEC' });
  });
});

describe('paths', () => {
  it('writes each page’s address with its name first, and reads back what it wrote', () => {
    for (const page of pageNames) expect(requestedPage(paths.page(page))).toEqual({ page });
    const campaign = paths.experiments.campaign('c0e5015');
    expect(campaign).toBe('?lab=experiments&view=campaigns&campaign=c0e5015');
    expect(inAddress.consoleSection(campaign)).toBe('campaigns');
    expect(inAddress.campaign(campaign)).toBe('c0e5015');
    expect(inAddress.run(paths.experiments.run('0e5015'))).toBe('0e5015');
    expect(paths.experiments.section('runs')).toBe('?lab=experiments');
    expect(inAddress.sheet(paths.sheets.sheet('a b&c'))).toBe('a b&c');
    expect(paths.lab('fec', { k: 5, text: 'S(5,100) & more' })).toBe('?lab=fec&k=5&text=S%285%2C100%29+%26+more');
  });

  it('keeps the study with its report, and reads only reports that can be', () => {
    const address = paths.studies.report('petrou2022', 'full');
    expect(address).toBe('?lab=studies&study=petrou2022&report=full');
    expect(inAddress.study(address)).toBe('petrou2022');
    expect(inAddress.report(address)).toBe('full');
    expect(inAddress.report('?lab=studies&report=c0e50f')).toBe('c0e50f');
    expect(inAddress.report('?lab=studies&report=<script>')).toBeNull();
    expect(addressParam('run', '?lab=experiments&run=')).toBeNull();
  });
});
