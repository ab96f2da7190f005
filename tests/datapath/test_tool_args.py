"""Bad arguments to satlink and swf-tunnel: each is refused (exit 2) before
anything is created, with a sentence that names the option and says what is
allowed. The tools run inside a namespace of their own, so that one that
wrongly accepts its arguments creates its devices there (and is killed at the
timeout) rather than on the host."""

import subprocess

import pytest

import netlab

pytestmark = pytest.mark.needs_root

TUNNEL = ["swf-tunnel", "--dev", "x", "--local", "1.2.3.4:1", "--remote", "1.2.3.4:2"]
SATLINK = ["satlink", "--a-dev", "x", "--b-dev", "y"]
PROTECT_ITEMS = ("give all, none, or a comma list of tcp, udp, icmp or a protocol number 0..255, "
                 "each with an optional :PORT")


@pytest.fixture(scope="module")
def ns():
    with netlab.namespace("dpargs") as name:
        yield name


def refusal(ns: str, args: list[str]) -> str:
    """The tool's stderr; it must exit 2 within the timeout."""
    command = ["ip", "netns", "exec", ns, netlab.tool(args[0]), *args[1:]]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{args} was accepted: the tool ran instead of refusing")
    assert result.returncode == 2, result.stderr
    return result.stderr


@pytest.mark.parametrize("args, error", [
    (["--k", "200", "--z", "100"],
     "--k 200 must be at most --z 100: a repair covers the last Z protected packets, so with K > Z "
     "some are never covered"),
    (["--protect", ""], f'--protect "" has an empty item: {PROTECT_ITEMS}'),
    (["--protect", ","], f'--protect "," has an empty item: {PROTECT_ITEMS}'),
    (["--protect", "tcp,"], f'--protect "tcp," has an empty item: {PROTECT_ITEMS}'),
    (["--protect", "sctp"], f'--protect: "sctp" in "sctp" is not a protocol: {PROTECT_ITEMS}'),
    (["--protect", "udp:99999"], "--protect port of udp must be in [1, 65535], got 99999"),
    (["--addr", "10.0.0.1"], '--addr must be IPv4 address/prefix like 10.0.0.1/24, got "10.0.0.1"'),
    (["--dev", 'a"b'], "--dev must be 1 to 15 letters, digits, '.', '_' or '-' (with at most one %d, "
                       'numbered by the kernel), got "a"b"'),
    (["--delivery", "ordered"], '--delivery must be immediate or in-order, got "ordered"'),
    (["--hold-ms", "50"], "--hold-ms needs --delivery in-order: only packets held for order wait"),
    (["--delivery", "in-order", "--hold-ms", "0"], "--hold-ms must be >= 0.001, got 0"),
    (["--capture-snap-bytes", "200"], "--capture-snap-bytes needs --tx-capture or --rx-capture"),
    (["--rx-capture", "/tmp/x", "--capture-snap-bytes", "40"],
     "--capture-snap-bytes must be in [48, 65535], got 40"),
    (["--tx-capture", "/tmp/x", "--rx-capture", "/tmp/x"],
     "--tx-capture and --rx-capture name the same file, /tmp/x: give each its own"),
])
def test_swf_tunnel_refuses(ns, args, error):
    assert refusal(ns, TUNNEL + args) == f"swf-tunnel: {error}\n"


def test_swf_tunnel_refuses_a_key_others_can_read_or_of_the_wrong_length(ns, tmp_path):
    key = tmp_path / "key"
    key.write_text("ab" * 32 + "\n")
    key.chmod(0o640)
    assert refusal(ns, TUNNEL + ["--key-file", str(key)]) == (
        f"swf-tunnel: --key-file: {key} can be read by other users (mode 0640): a key file must be "
        "private (chmod 600)\n")
    key.chmod(0o600)
    key.write_text("ab" * 31)
    assert refusal(ns, TUNNEL + ["--key-file", str(key)]) == (
        f"swf-tunnel: --key-file: {key} must hold the key as 64 hexadecimal digits (e.g. from openssl "
        "rand -hex 32)\n")
    key.write_text("ab" * 32)
    assert refusal(ns, TUNNEL + ["--key-file", str(key), "--symbol-bytes", "1459"]) == (
        "swf-tunnel: --symbol-bytes 1459 makes repair datagrams of 1516 bytes with --key-file, above "
        "--outer-mtu 1500: give at most 1443\n")
    assert refusal(ns, TUNNEL + ["--key-file", str(key), "--outer-mtu", "620"]) == (
        "swf-tunnel: --outer-mtu 620 leaves symbols of 563 bytes with --key-file, below 578: give at "
        "least 635\n")


def test_swf_tunnel_reports_the_device_the_kernel_numbered(ns):
    args = [netlab.tool("swf-tunnel"), "--dev", "rp%d", "--local", "127.0.0.1:7001",
            "--remote", "127.0.0.1:7002"]
    with netlab.running(args, ns) as tunnel:
        device = tunnel.event("ready")["dev"]
        shown = subprocess.run(["ip", "-n", ns, "link", "show", device], capture_output=True)
    assert device == "rp0" and shown.returncode == 0


@pytest.mark.parametrize("args, error", [
    (["--channel", "bernoulli"],
     '--channel: the bernoulli model needs loss, missing from "bernoulli" (e.g. bernoulli:loss=0.01)'),
    (["--channel", "ge-time:p=0.1"],
     '--channel: the ge-time model needs q and step_ms, missing from "ge-time:p=0.1" '
     "(e.g. ge-time:p=0.01,q=0.167,step_ms=10)"),
    (["--ab-channel", "ge-time:p=0.1,q=0.2"],
     '--ab-channel: the ge-time model needs step_ms, missing from "ge-time:p=0.1,q=0.2" '
     "(e.g. ge-time:p=0.01,q=0.167,step_ms=10)"),
    (["--channel", "ge-time:p=0.1,q=0.2,step_ms=0"],
     '--channel: step_ms is out of range for the ge-time model in "ge-time:p=0.1,q=0.2,step_ms=0": '
     "it must be a time in [0.001, 1e12] ms"),
    (["--channel", "bernoulli:loss=0.1,step_ms=3"],
     '--channel: the bernoulli model takes no key "step_ms" (it takes loss seed; see --help)'),
    (["--channel", "bernoulli:loss=0.1,loss=0.2"],
     '--channel: loss is given twice in "bernoulli:loss=0.1,loss=0.2"'),
    (["--buffer-bytes", "100000", "--buffer-packets", "10"],
     "--buffer-bytes and --buffer-packets both set the ab buffer: give it in bytes, packets or BDP, "
     "not two of them"),
    (["--ba-buffer-packets", "10", "--buffer-bdp", "2"],
     "--ba-buffer-packets and --buffer-bdp both set the ba buffer: give it in bytes, packets or BDP, "
     "not two of them"),
    (["--a-addr", "10.0.0.1/33"],
     '--a-addr must be IPv4 address/prefix like 10.0.0.1/24, got "10.0.0.1/33"'),
    (["--ab-loss-rule", "end"], '--ab-loss-rule must be overlap or start, got "end"'),
    (["--capture", "/tmp/x"], "--capture would write both directions into one file: give "
                              "--ab-capture FILE and/or --ba-capture FILE"),
    (["--capture-max-bytes", "100000"], "--capture-max-bytes needs --ab-capture or --ba-capture"),
    (["--ba-capture", "/tmp/x", "--ab-capture-snap-bytes", "200"],
     "--ab-capture-snap-bytes needs --ab-capture"),
    (["--ab-capture", "/tmp/x", "--capture-max-bytes", "100"],
     "--capture-max-bytes must be in [4096, 1125899906842624], got 100"),
    (["--ab-capture", "/tmp/x", "--ba-capture", "/tmp/x"],
     "--ab-capture and --ba-capture name the same file, /tmp/x: give each direction its own"),
])
def test_satlink_refuses(ns, args, error):
    assert refusal(ns, SATLINK + args) == f"satlink: {error}\n"
