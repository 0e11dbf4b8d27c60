"""The bench's static host: a reader that leaves mid-transfer is no error (no traceback in the
bench's output), while a real fault in the handler is still printed."""

from releasekb.bench import browser


def _server_error(exception: BaseException, capsys) -> str:
    server = browser._StaticServer(("127.0.0.1", 0), lambda *args: None)
    try:
        try:
            raise exception
        except BaseException:
            server.handle_error(None, ("127.0.0.1", 1))  # as socketserver calls it, inside `except`
    finally:
        server.server_close()
    return capsys.readouterr().err


def test_a_reader_leaving_mid_transfer_prints_nothing(capsys):
    assert _server_error(BrokenPipeError(32, "Broken pipe"), capsys) == ""
    assert _server_error(ConnectionResetError(104, "Connection reset by peer"), capsys) == ""


def test_a_fault_in_the_handler_is_still_printed(capsys):
    err = _server_error(ValueError("a bug of the handler"), capsys)
    assert "ValueError: a bug of the handler" in err
