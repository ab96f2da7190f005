/**
 * What each metric of the console means, in a sentence or two: shown where the metric appears
 * (a "?" beside its label, read as its description) and listed in the frontend README.
 */
export const glossary = {
  goodput:
    'Bytes delivered to the receiving application per second (for TCP, the bytes the sender saw acknowledged), averaged over the last round trip; never above the rate of the slowest link the connection crosses (through a split-TCP PEP each connection is metered alone: the gateway–server one crosses none and bursts into the PEP’s buffer). In the summary: the size over the download time.',
  downloadTime: 'From the connection’s first packet to the last byte the receiver got.',
  cwnd: 'Congestion window: the bytes the sender may have in flight, not yet acknowledged. Its growth and cuts are the congestion control at work.',
  rtt: 'Round-trip time: from sending a packet to its acknowledgment, smoothed, as the sender measures it. At least about 500 ms over a GEO path; more while the queue fills.',
  retransmissions: 'Packets sent again because the sender judged them lost (TCP) or declared them lost (QUIC), counted from the start.',
  power: 'Kleinrock’s power: goodput divided by the mean RTT. Higher is better: fast, and without long queues.',
  direction: 'Download: the server sends over the forward link. Upload: the client sends over the thin return link, where a download’s acknowledgments queue behind it.',
  utilisation:
    'Goodput over the bottleneck rate of the flow’s direction (the forward link for a download, the return link for an upload). Even a full link gives about 96 %: headers take the rest.',
  startup:
    'From the flow’s data connection’s first packet (as the download time) until its live goodput (over the last round trip) first reaches 90 % of the bottleneck rate; “not reached” if it never does (then the whole flow is start-up).',
  startupGoodput: 'Bytes delivered during the start-up, over its length.',
  steadyGoodput: 'Bytes delivered from the end of the start-up to the flow’s end, over that time.',
  startupRtt: 'Mean RTT during the start-up. Through a split-TCP PEP, the start-up and steady figures are those of the connection the client sees (to the terminal PEP; with a gateway PEP alone, across the satellite): the segments’ table gives the others.',
  steadyRtt: 'Mean RTT after the start-up: higher when the flow keeps a queue at the bottleneck.',
  startupRetransmissions: 'Packets sent again during the start-up.',
  steadyRetransmissions: 'Packets sent again after the start-up.',
  convergence:
    'For a flow that started after another of its direction: from its start until its goodput, over 4 base round trips, stays within 20 % of its fair share (the bottleneck rate over the flows active then) to the end of their overlap; “never” if it does not.',
  role: 'Latecomer: it started after another flow of its direction. Short beside long: a transfer of a fixed size while a flow of another group ran for its whole life (its download time is the mouse’s completion time).',
  timeToFirstByte:
    'A download’s first packet (the SYN, or QUIC’s Initial) to the first byte of data reaching the client. End to end, two round trips; a split-TCP PEP with Fast Open saves one, QUIC’s 0-RTT too.',
  pepSegments:
    'A split-TCP PEP cuts the connection in segments (client–terminal PEP, across the satellite between the PEPs, gateway PEP–server), each with its own handshake, window and loss recovery. Per segment: the bytes its sender got acknowledged and the packets it sent again.',
  pepIntake:
    'The segment where a flow’s data enter the split-TCP PEPs (gateway–server for a download, client–terminal for an upload) crosses no emulated link: its sender fills the PEP’s buffer at the LAN’s pace, well above the satellite’s rate, so the other segments set the goodput axis and its peaks are drawn at its top.',
  pepPipe:
    'The most bytes a PEP held between its two connections for the flow, in the direction of the data: they pile up in front of the slower segment.',
  pepSegmentBytes:
    'Through a split-TCP PEP, the bytes each segment’s sender got acknowledged since its connection started: client–terminal (the terminal PEP sends to the client), satellite (between the PEPs; with a gateway PEP alone, the client’s own connection to it) and gateway–server. The server’s segment runs ahead while the PEPs’ buffers fill. The flow charts draw each segment’s connection as a line of its own.',
  pepBuffer:
    'The bytes a PEP holds of a flow’s data: taken from the segment before it (and acknowledged there), not yet acknowledged on the segment after it — in its sockets’ queues and the pipe between them. They pile up in front of the slower segment: at the gateway, in front of the satellite.',
  jain: 'Jain’s fairness index over the flows’ goodputs, (Σx)² / (n·Σx²): 1 when every flow gets the same, 1/n when one flow takes everything.',
  queue: 'Bytes waiting in the satellite link’s drop-tail buffer, per direction. A full buffer drops packets: congestion.',
  drops: 'Packets the forward link dropped, from the start: “buffer full” is congestion (the queue overflowed), “channel” the link’s own losses (the channel model).',
  fecCounters:
    'The FEC tunnel’s receiving end: source packets lost on the link, and how many of them the repair packets rebuilt; the difference is what the transport still saw lost.',
  sources: 'Original packets the tunnel carried (each IP packet of the flows is one source symbol).',
  repairs: 'Repair packets: one after every k sources, a random linear combination of the last z sources.',
  lost: 'Source packets the link dropped.',
  rebuilt: 'Lost source packets the decoder rebuilt from repair packets, before the transport noticed.',
  satlinkLateness:
    'How long after its due time satlink let a packet leave the emulated link: its p99 over the whole run (the worst direction, the worst iteration). At 1 ms or more the host could not keep up.',
  tunnelLateness:
    'How late the FEC tunnel’s endpoints were: how long a datagram waited in an endpoint’s socket after the kernel received it, or a flush or hold timer fired after its deadline. The endpoints run in user space beside everything else, so they fall behind before satlink does.',
  runsAtOnce: 'How many runs the host ran while this one ran, this one included (admitted by any satlab process, counted every second): what the run shared its CPUs with.',
  realtimeThreads:
    'Whether satlink’s and the tunnel’s forwarding threads ran under the real-time scheduler (SCHED_FIFO), as each tool said when it started: then the rest of the host waits for them; at normal priority they share the CPUs with everything else, and their lateness shows what that cost.',
  hostLoad: 'The host’s 1-minute load average (runnable processes), the highest read every second while the run ran; beside it the share of CPU time the hypervisor gave others (steal).',
  residualLoss: 'Lost sources that were not rebuilt, as a share of all sources sent: what FEC left for the transport to repair.',
  elapsed: 'Time since the first data packet of the iteration’s flows (iperf3’s control connection comes before it), from the latest sample.',
  wallTime: 'From the run’s start to its end, with the building and the tearing down of its network.',
  queuePlace: 'The backend runs a few runs at once; the others wait in line. The start is estimated from how long recent runs took.',
} as const;

export type GlossaryTerm = keyof typeof glossary;
