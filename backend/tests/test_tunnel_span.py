"""Where the FEC tunnel sits, on the wire: spanning the satellite only, it
leaves a lossy LAN segment's losses to the transport; end to end (client to
the server's side), it repairs them too."""

import pytest

from satlab.engine import runner
from satlab.scenario import load
from tests.conftest import LABS

LAN_LOSS = 0.05
# A UDP stream from the server to the client beside a small download, through
# a LAN losing 5 % each way; S(2,100) repairs far more than 5 % of random loss.
LOSSY_LAN = ["flows.0.size_bytes=200000", f"path.lan={{channel: {{model: bernoulli, loss: {LAN_LOSS}}}}}",
             "cross_traffic=[{link: forward, rate_mbps: 2, duration_s: 4}]", "tunnel.k=2", "tunnel.z=100"]


def cross_traffic_loss(span: str) -> tuple[float, int]:
    result = runner.run(load(LABS / "geo-ideal.yaml", [*LOSSY_LAN, f"tunnel.span={span}"]))
    assert result.status == "done", result.error
    (cross,) = result.iterations[0]["cross_traffic"]
    assert cross["error"] is None
    packets = round(cross["sent_bytes"] / (1500 - 28 - 60))  # roughly: datagrams of the tunnel's inner MTU
    return cross["loss_ratio"], packets


@pytest.mark.needs_root
def test_an_end_to_end_tunnel_repairs_the_lans_losses_and_a_satellite_one_does_not():
    satellite_loss, packets = cross_traffic_loss("satellite")
    end_to_end_loss, _ = cross_traffic_loss("end-to-end")
    # Satellite span: the LAN's 5 % reach the receiver, within 4 binomial
    # standard deviations of the stream's few hundred datagrams.
    sd = (LAN_LOSS * (1 - LAN_LOSS) / packets) ** 0.5
    assert abs(satellite_loss - LAN_LOSS) < 4 * sd, (satellite_loss, packets)
    # End to end: S(2,100) rebuilds what the LAN loses.
    assert end_to_end_loss < 0.005, end_to_end_loss
