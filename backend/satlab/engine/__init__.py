"""The engine: what performs one run on this host, from a validated scenario
to its results, knowing nothing of HTTP, terminals or storage.

runner drives one run: plan (every name, address and argument, decided
first) -> topology (namespaces) -> links (satlink or netem) -> tunnel
(swf-tunnel) -> flows (one transport each) with cross_traffic -> samplers
(live metrics) -> summary (numbers of an iteration), reported as events.
Beside it: what this host offers a run (host, container, hystart,
tcp_stack), child processes (process, wait) and a channel's statistics
(channel_stats). Above it sits satlab.service; below it only satlab.scenario
and the top-level modules it builds on.
"""
