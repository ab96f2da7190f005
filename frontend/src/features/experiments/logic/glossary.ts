/**
 * What each metric of the console means, in a sentence or two: shown where the metric appears
 * (a "?" beside its label, read as its description) and listed in the frontend README.
 */
export const glossary = {
  goodput:
    'Bytes delivered to the receiving application per second (for TCP, the bytes the sender saw acknowledged), averaged over the last round trip; never above the bottleneck link’s rate. In the summary: the size over the download time.',
  downloadTime: 'From the connection’s first packet to the last byte the receiver got.',
  cwnd: 'Congestion window: the bytes the sender may have in flight, not yet acknowledged. Its growth and cuts are the congestion control at work.',
  rtt: 'Round-trip time: from sending a packet to its acknowledgment, smoothed, as the sender measures it. At least about 500 ms over a GEO path; more while the queue fills.',
  retransmissions: 'Packets sent again because the sender judged them lost (TCP) or declared them lost (QUIC), counted from the start.',
  power: 'Kleinrock’s power: goodput divided by the mean RTT. Higher is better: fast, and without long queues.',
  jain: 'Jain’s fairness index over the flows’ goodputs, (Σx)² / (n·Σx²): 1 when every flow gets the same, 1/n when one flow takes everything.',
  queue: 'Bytes waiting in the satellite link’s drop-tail buffer, per direction. A full buffer drops packets: congestion.',
  drops: 'Packets the forward link dropped, from the start: “buffer full” is congestion (the queue overflowed), “channel” the link’s own losses (the channel model).',
  fecCounters:
    'The FEC tunnel’s receiving end: source packets lost on the link, and how many of them the repair packets rebuilt; the difference is what the transport still saw lost.',
  sources: 'Original packets the tunnel carried (each IP packet of the flows is one source symbol).',
  repairs: 'Repair packets: one after every k sources, a random linear combination of the last z sources.',
  lost: 'Source packets the link dropped.',
  rebuilt: 'Lost source packets the decoder rebuilt from repair packets, before the transport noticed.',
  residualLoss: 'Lost sources that were not rebuilt, as a share of all sources sent: what FEC left for the transport to repair.',
  elapsed: 'Time since the iteration’s flows could start, from the latest sample.',
  wallTime: 'From the run’s start to its end, with the building and the tearing down of its network.',
  queuePlace: 'The backend runs a few runs at once; the others wait in line. The start is estimated from how long recent runs took.',
} as const;

export type GlossaryTerm = keyof typeof glossary;
