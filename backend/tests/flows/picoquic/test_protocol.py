"""The request and answer lines of the picoquic peers' stream (no network)."""

import pytest

from satlab.engine.flows.picoquic.protocol import Request, encode_answer, parse_answer, parse_request


@pytest.mark.parametrize(("request_bytes", "named"), [
    (b"20971520", "JSON object"),
    (b'{"flow": "1", "size_bytes": 0}', "size_bytes"),
    (b'{"flow": "1", "size_bytes": true}', "size_bytes"),
    (b'{"size_bytes": 5}', "flow"),
    (b'{"flow": "1", "size_bytes": 5, "until_t_s": 9.0}', "exactly one"),
    (b'{"flow": "1", "size_bytes": 5, "direction": "sideways"}', "direction"),
    (b"\xff", "not JSON"),
])
def test_server_refuses_a_bad_request_with_a_sentence(request_bytes: bytes, named: str) -> None:
    with pytest.raises(RuntimeError, match=named):
        parse_request(request_bytes)


def test_server_reads_a_request() -> None:
    request = parse_request(Request("f1", "upload", None, 12.5).encode().rstrip(b"\n"))
    assert (request.flow, request.direction, request.size_bytes, request.until_t_s, request.warm_up) == (
        "f1", "upload", None, 12.5, False)


def test_client_reads_an_answer() -> None:
    assert parse_answer(encode_answer(1_000_000, 12.3456789).rstrip(b"\n")) == (1_000_000, 12.345679)


@pytest.mark.parametrize("answer", [b'{"bytes": 5}', b"[]", b'{"bytes": "many", "last_byte_t_s": 1}', b"\xff"])
def test_client_refuses_a_bad_answer_with_a_sentence(answer: bytes) -> None:
    with pytest.raises(RuntimeError, match=r"^The server's answer to the upload is not \{bytes, last_byte_t_s\}: b"):
        parse_answer(answer)
