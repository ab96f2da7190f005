/** What each figure of the channel lab means, shown beside it (the frontend README's glossary says the same). */
export const channelGlossary = {
  measuredLoss: 'Packets the channel lost, over the packets drawn from it: the loss rate of this sample.',
  packetsDrawn: 'Packets sent through the channel model, one every packet spacing, to measure the loss pattern.',
  bursts: 'Runs of consecutive lost packets; a lone loss is a burst of 1.',
  meanBurst: 'The mean length of a burst, in packets. A code rebuilds a burst only if enough repairs after it cover it.',
  packetSpacing: 'Time between two packets on the wire; time-driven models (Gilbert-Elliott in time, outages, traces) lose by send time.',
  overhead: 'Repairs over all packets sent: 1/(k+1) for S(k,z).',
  channelLoss: 'Packets, sources and repairs, the channel dropped in this Monte-Carlo run.',
  residualLoss:
    'Sources the receiver neither received nor rebuilt, over sources sent: what the FEC leaves for the transport to retransmit.',
  interval:
    '95 % interval of the residual loss: Wilson score interval on the effective number of sources, from the spread of 32 batches (losses come in bursts, so sources are not independent).',
  sources: 'Source packets counted so far for this k.',
} as const;
