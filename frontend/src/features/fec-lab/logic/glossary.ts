import { giveUpRule } from './give-up-rule';

/**
 * What each counter of the FEC lab means, shown beside it (the frontend README's glossary says the
 * same). Some depend on the code: the decoder keeps 2z ESIs rounded up to a power of two, not z.
 */
export function fecGlossary(z: number) {
  return {
    sent: 'Packets put on the wire so far, sources and repairs.',
    sources: 'Source packets sent: one per symbol of the payload.',
    repairs: 'Repair packets sent: one after every k sources, and a last one after the final source.',
    lost: 'Packets the channel dropped, sources and repairs.',
    sourcesLost: 'Source packets the channel dropped.',
    rebuilt: 'Lost sources the decoder rebuilt from the repairs it received.',
    stillMissing:
      'Lost sources neither rebuilt nor given up: a later repair may rebuild them. Once the run is over, they stay lost.',
    givenUp: `Lost sources the decoder dropped unrebuilt. ${giveUpRule(z)}`,
    residualLoss:
      'Sources neither received nor rebuilt (still missing and given up), over sources sent: what the FEC leaves for the transport to retransmit.',
    overhead: 'Repairs over all packets sent: 1/(k+1) for S(k,z).',
    decodingDelay:
      'From the moment a lost source was sent to the arrival of the packet that let the decoder rebuild it, in ms (packets × packet spacing): the wait the application sees.',
  };
}
