"""The PEP without a system: the scenario's `pep` and its refusals, its part
of the plan, its interception commands, the per-flow figures from its lines,
the first-byte watch's filter, and preflight's refusal of a congestion
control this host lacks."""

import socket
import struct

import pytest

from satlab import tcp_congestion
from satlab.engine import preflight
from satlab.engine.first_byte import FirstByteWatch, port_filter
from satlab.engine.pep import Interception, interception_commands, removal_commands
from satlab.engine.pep.hops import hop_samples
from satlab.engine.pep.metrics import PepLines, flow_counters, flow_figures
from satlab.engine.pep.segments import end_host_segment
from satlab.engine.plan import make_plan
from satlab.scenario import ScenarioError, load
from tests.conftest import LABS

PEP = "pep={mode: distributed, satellite: {cc: bbr, initcwnd_packets: 40, initrwnd_packets: 60, fast_open: cookie}}"


def refusal(*overrides: str) -> str:
    with pytest.raises(ScenarioError) as refused:
        load(LABS / "geo-ideal.yaml", list(overrides))
    (problem,) = refused.value.problems
    return problem


def test_a_pep_is_off_unless_the_scenario_asks():
    assert load(LABS / "geo-ideal.yaml").pep is None
    assert make_plan(load(LABS / "geo-ideal.yaml"), "a1b2c3").peps == []


def test_bad_pep_settings_are_refused_naming_the_field():
    assert refusal("pep={mode: split}") == "pep.mode: Input should be 'gateway' or 'distributed' (got 'split')"
    assert refusal("pep={mode: gateway, satellite: {cc: fast}}").startswith(
        "pep.satellite.cc: is not a congestion control of Linux TCP; allowed: cubic, bbr, reno, ")
    assert refusal("pep={mode: gateway, satellite: {fast_open: cookie}}").startswith(
        "pep.satellite.fast_open: needs mode distributed")
    assert refusal("pep={mode: distributed, satellite: {fast_open: on}}") == (
        "pep.satellite.fast_open: names no mode; allowed: off, cookie, no-cookie (got True)")
    assert refusal("pep={mode: distributed, pipe_bytes: 100}").startswith("pep.pipe_bytes: ")
    assert refusal("pep={mode: distributed, ground: {initcwnd_packets: 10}}").startswith(
        "pep.ground.initcwnd_packets: ")


def test_the_plan_runs_a_pep_at_each_end_with_the_segments_settings():
    plan = make_plan(load(LABS / "geo-ideal.yaml", [PEP]), "a1b2c3")
    gateway, terminal = plan.peps
    assert (gateway.role, gateway.netns, gateway.inbound_dev) == ("gateway", "satlab-a1b2c3-gat", "sata1b2c3")
    assert (terminal.role, terminal.netns, terminal.inbound_dev) == ("terminal", "satlab-a1b2c3-ter", "lana1b2c3")
    assert terminal.args == ["--sat-congestion", "bbr", "--ground-congestion", "cubic", "--sat-fastopen", "cookie",
                             "--pipe-bytes", "1048576"]
    # The initial windows ride on each end's route across the satellite.
    assert plan.routes["terminal"][0][-4:] == ["initcwnd", "40", "initrwnd", "60"]
    assert plan.routes["gateway"][0][-4:] == ["initcwnd", "40", "initrwnd", "60"]
    assert plan.sysctls["terminal"]["net.ipv4.tcp_fastopen"] == plan.sysctls["gateway"]["net.ipv4.tcp_fastopen"] == "3"
    assert "net.ipv4.tcp_fastopen" not in plan.sysctls["client"]
    assert plan.notes == []


def test_a_gateway_pep_alone_intercepts_what_the_tunnel_delivers():
    plan = make_plan(load(LABS / "geo-ideal.yaml", ["pep={mode: gateway, satellite: {initcwnd_packets: 40}}",
                                                    "tunnel={k: 5, z: 50}"]), "a1b2c3")
    (gateway,) = plan.peps
    assert gateway.inbound_dev == "feca1b2c3"
    assert "initcwnd" not in plan.routes["terminal"][0]
    assert plan.routes["gateway"][0][-2:] == ["initcwnd", "40"]


def test_the_plan_says_quic_passes_untouched_and_what_an_upload_through_a_pep_measures():
    plan = make_plan(load(LABS / "geo-ideal.yaml", [
        "pep={mode: distributed}", "flows.0={transport: quic-ngtcp2, cc: cubic, size_bytes: 1000}",
        "flows.1={transport: tcp, cc: cubic, size_bytes: 1000, direction: upload}"]), "a1b2c3")
    quic, upload = plan.notes
    assert quic.startswith("flows.0: quic-ngtcp2 is QUIC, over UDP: it passes the PEP untouched")
    assert upload.startswith("flows.1: an iperf3 upload ends when its sender has written its bytes")
    end_to_end = make_plan(load(LABS / "geo-ideal.yaml", ["pep={mode: distributed}", "tunnel={k: 5, z: 50, "
                                                                                       "span: end-to-end}"]), "a1b2c3")
    (note,) = end_to_end.notes
    assert note.startswith("pep: the tunnel spans end to end")


def test_the_interception_and_its_removal_are_the_documented_commands():
    interception = Interception("ns", "lan0")
    assert interception_commands(interception)[3] == [
        "iptables", "-w", "-t", "mangle", "-A", "SATLAB_PEP", "-i", "lan0", "-p", "tcp", "-j", "TPROXY",
        "--on-ip", "127.0.0.1", "--on-port", "7000", "--tproxy-mark", "0x1/0x1"]
    assert [command[:6] for command in removal_commands(interception)][:3] == [
        ["iptables", "-w", "-t", "mangle", "-D", "PREROUTING"], ["iptables", "-w", "-t", "mangle", "-F", "SATLAB_PEP"],
        ["iptables", "-w", "-t", "mangle", "-X", "SATLAB_PEP"]]


def socket_info(bytes_acked: int = 0, bytes_received: int = 0, total_retrans: int = 0) -> dict:
    return {"bytes_acked": bytes_acked, "bytes_received": bytes_received, "total_retrans": total_retrans}


def closed(identifier: int, port: int, sat: dict, ground: dict, to_client_peak: int = 0, client_port: int = 40000,
           pipe_bytes: int = 0, event: str = "closed") -> dict:
    return {"event": event, "id": identifier, "server": f"10.64.2.2:{port}", "client": f"10.64.0.2:{client_port}",
            "state": "finished", "sat": sat, "ground": ground,
            "to_server": {"bytes": 10, "pipe_bytes": pipe_bytes, "pipe_peak_bytes": 10},
            "to_client": {"bytes": 1000, "pipe_bytes": pipe_bytes, "pipe_peak_bytes": to_client_peak}}


def relaying(identifier: int, port: int, client_port: int, sat: dict, ground: dict, pipe_bytes: int = 0) -> dict:
    """A connection line of a connection still open."""
    return closed(identifier, port, sat, ground, client_port=client_port, pipe_bytes=pipe_bytes, event="connection")


def tcp_info(bytes_acked: int = 0, inq_bytes: int = 0, outq_bytes: int = 0, rtt_us: int = 500_000) -> dict:
    """A socket as pep_tcp_print reports it."""
    return {"bytes_acked": bytes_acked, "bytes_received": 0, "total_retrans": 3, "cwnd_packets": 10,
            "mss_bytes": 1448, "rtt_us": rtt_us, "delivery_rate_bytes_per_s": 1_500_000, "inq_bytes": inq_bytes,
            "outq_bytes": outq_bytes}


def test_a_downloads_segments_are_each_counted_at_their_sender():
    plan = make_plan(load(LABS / "geo-ideal.yaml", ["pep={mode: distributed}"]), "a1b2c3")
    flow = plan.flows[0]
    terminal, gateway = PepLines("terminal"), PepLines("gateway")
    terminal(closed(1, flow.port, sat=socket_info(bytes_received=1000, total_retrans=1),
                    ground=socket_info(bytes_acked=1000, total_retrans=2), to_client_peak=3000))
    gateway(closed(1, flow.port, sat=socket_info(bytes_acked=1000, total_retrans=7),
                   ground=socket_info(bytes_received=1000), to_client_peak=5000))
    gateway(closed(2, flow.port + 1, sat=socket_info(bytes_acked=99, total_retrans=99), ground=socket_info()))
    figures = flow_figures("distributed", flow, 3, {"terminal": terminal, "gateway": gateway})
    assert figures == {"pep_mode": "distributed", "pep_connections": 1,
                       "pep_client_bytes": 1000, "pep_client_retransmissions": 2,  # the terminal PEP's
                       "pep_satellite_bytes": 1000, "pep_satellite_retransmissions": 7,  # the gateway PEP's
                       "pep_server_bytes": 1000, "pep_server_retransmissions": 3,  # the server's own
                       "pep_terminal_pipe_peak_bytes": 3000, "pep_terminal_pipe_mean_bytes": 0.0,
                       "pep_gateway_pipe_peak_bytes": 5000, "pep_gateway_pipe_mean_bytes": 0.0}


def test_a_pep_holds_what_its_receiving_socket_has_not_handed_over_its_pipe_and_what_its_sender_awaits():
    """A download's data reaches the terminal PEP on its satellite socket and
    leaves on its ground one; an upload's the other way round."""
    plan = make_plan(load(LABS / "geo-ideal.yaml", ["pep={mode: distributed}",
                                                    "flows.1={transport: tcp, cc: cubic, size_bytes: 1000, "
                                                    "direction: upload}"]), "a1b2c3")
    download, upload = plan.flows
    terminal, gateway = PepLines("terminal"), PepLines("gateway")
    terminal(relaying(1, download.port, 20000, sat=tcp_info(inq_bytes=100, outq_bytes=7),
                      ground=tcp_info(inq_bytes=5, outq_bytes=2000), pipe_bytes=300))
    terminal(relaying(2, upload.port, 20001, sat=tcp_info(inq_bytes=11, outq_bytes=4000),
                      ground=tcp_info(inq_bytes=60, outq_bytes=13), pipe_bytes=20))
    counters = flow_counters("distributed", download, None, {"terminal": terminal, "gateway": gateway})
    assert counters is not None
    assert (counters["terminal_buffer_bytes"], counters["terminal_pipe_bytes"]) == (100 + 300 + 2000, 300)
    assert (counters["gateway_buffer_bytes"], counters["gateway_pipe_bytes"]) == (None, None)  # nothing relayed yet
    counters = flow_counters("distributed", upload, 4, {"terminal": terminal, "gateway": gateway})
    assert counters is not None
    assert (counters["terminal_buffer_bytes"], counters["client_retransmissions"]) == (60 + 20 + 4000, 4)
    (quic,) = make_plan(load(LABS / "geo-ideal.yaml", ["pep={mode: distributed}", "flows.0={transport: "
                                                       "quic-picoquic, cc: bbr1, size_bytes: 1000}"]), "a1b2c3").flows
    assert flow_counters("distributed", quic, None, {"terminal": PepLines("terminal")}) is None


def test_a_split_flows_hops_where_a_pep_sends_are_its_data_connections_sockets():
    """A download through distributed PEPs: the client's hop is the terminal
    PEP's ground socket, the satellite's the gateway PEP's satellite socket,
    both of the data connection (from the client's data port), never the
    control connection; the server's hop is the server's own sample."""
    plan = make_plan(load(LABS / "geo-ideal.yaml", ["pep={mode: distributed}"]), "a1b2c3")
    flow = plan.flows[0]
    terminal, gateway = PepLines("terminal"), PepLines("gateway")
    terminal(relaying(1, flow.port, 40000, sat=tcp_info(), ground=tcp_info(bytes_acked=37, rtt_us=900)))  # control
    terminal(relaying(2, flow.port, 20000, sat=tcp_info(), ground=tcp_info(bytes_acked=900_000, rtt_us=1_200)))
    gateway(relaying(1, flow.port, 20000, sat=tcp_info(bytes_acked=950_000, rtt_us=560_000), ground=tcp_info()))
    samples = hop_samples("distributed", flow, 20000, {"terminal": terminal, "gateway": gateway})
    assert sorted(samples) == ["client", "satellite"]
    assert (samples["client"].bytes_acked, samples["client"].rtt_ms) == (900_000, 1.2)
    assert (samples["satellite"].bytes_acked, samples["satellite"].rtt_ms, samples["satellite"].cwnd_bytes,
            samples["satellite"].delivery_rate_mbps) == (950_000, 560.0, 14480, 12.0)
    assert end_host_segment("distributed", "download") == "server"
    assert end_host_segment("distributed", "upload") == "client"
    assert end_host_segment("gateway", "upload") == "satellite"


def tcp_segment(source: int, destination: int, flags: int, payload_bytes: int = 0) -> bytes:
    """An IPv4 header and a TCP header without options, as the watch reads them."""
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 40 + payload_bytes, 0, 0, 64, socket.IPPROTO_TCP, 0,
                     bytes(4), bytes(4))
    return ip + struct.pack("!HHIIBBHHH", source, destination, 0, 0, 5 << 4, flags, 0, 0, 0)


def test_the_first_byte_is_timed_from_the_syn_of_the_data_connection():
    """iperf3's control connection opens first, then its data connection:
    the first byte is the server's first data on the second one."""
    watch = FirstByteWatch("unused", 5201, connection_index=1)
    syn, data = 0x02, 0x18  # SYN; PSH+ACK
    for t_ms, packet in [(0, tcp_segment(40000, 5201, syn)), (500, tcp_segment(5201, 40000, data, 1)),
                         (600, tcp_segment(40001, 5201, syn)), (601, tcp_segment(40001, 5201, syn)),  # resent
                         (700, tcp_segment(40001, 5201, data, 37)), (1100, tcp_segment(5201, 40000, data, 1)),
                         (1600, tcp_segment(5201, 40001, data, 1448)), (1700, tcp_segment(5201, 40001, data, 1448))]:
        watch._segment(packet, t_ms * 1_000_000)
    assert watch.first_byte_ms == 1000


def test_the_first_byte_filter_is_a_classic_bpf_program_on_the_port():
    program = port_filter(5201)
    assert len(program) == 13 * 8  # struct sock_filter: 8 bytes each
    assert program.count(struct.pack("I", 5201)) == 2  # the source and destination port comparisons


def test_a_pep_congestion_control_this_host_lacks_is_refused_naming_the_field_and_those_it_has():
    kernel = tcp_congestion.host_kernel()
    missing = next((name for name in tcp_congestion.LINUX_TCP_CONGESTION_CONTROLS if kernel.problem(name)), None)
    if missing is None:
        pytest.skip("this host runs every Linux congestion control")
    with pytest.raises(ScenarioError) as refused:
        preflight.check(load(LABS / "geo-ideal.yaml", [f"pep={{mode: distributed, satellite: {{cc: {missing}}}}}"]))
    (problem,) = [p for p in refused.value.problems if p.startswith("pep.")]
    assert problem.startswith(f"pep.satellite.cc: {kernel.problem(missing)}; allowed: "
                              f"{', '.join(kernel.runnable(tcp_congestion.LINUX_TCP_CONGESTION_CONTROLS))}")
