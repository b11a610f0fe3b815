"""TLS and per-table credentials on a real Mosquitto: a CA and a server certificate made in the
test (openssl CLI), a TLS listener with the venue's password file and ACL (docs/venue.md); a real
table service and the real venue service connect with the CA and their own users and the events
arrive; a client without the CA, one speaking plain TCP and one with a wrong password are refused."""

from __future__ import annotations

import shutil
import ssl
import subprocess
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.venue.broker import BrokerConfig
from tests.venue.conftest import ACL, RUN_AS, SECURED, Broker, free_port, password_file, require_mosquitto
from tests.venue.tables import start_table, start_venue, wait_for

OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A throwaway CA and a server certificate for 127.0.0.1 signed by it: (ca, cert, key)."""
    if not Path(OPENSSL).exists():
        pytest.fail("openssl is not installed: run 'make broker' (it installs Debian's openssl)")
    ca_key, ca, key, csr, cert = (folder / n for n in ("ca.key", "ca.pem", "server.key", "server.csr", "server.pem"))
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    def run(*args: str) -> None:
        subprocess.run([OPENSSL, *args], check=True, capture_output=True)

    run("req", "-x509", *ec, "-keyout", str(ca_key), "-out", str(ca), "-days", "2", "-subj", "/CN=Test venue CA")
    run("req", *ec, "-keyout", str(key), "-out", str(csr), "-subj", "/CN=127.0.0.1")
    ext = folder / "san.ext"
    ext.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
        "-out", str(cert), "-days", "2", "-extfile", str(ext))
    return ca, cert, key


@pytest.fixture
def tls_broker(tmp_path: Path) -> Broker:
    require_mosquitto()
    ca, cert, key = make_certificates(tmp_path)
    passwd = tmp_path / "passwd"
    password_file(passwd, ("venue", "t1"))
    (tmp_path / "acl").write_text(ACL)
    broker = Broker(tmp_path, free_port())
    broker.conf.write_text(
        RUN_AS + f"listener {broker.port} 127.0.0.1\ncafile {ca}\ncertfile {cert}\nkeyfile {key}\npersistence false\n"
        + SECURED.format(passwd=passwd, acl=tmp_path / "acl")
    )
    return broker


def test_tables_and_venue_over_tls_with_their_own_users(tmp_path: Path, tls_broker: Broker) -> None:
    tls_broker.start()
    ca = tmp_path / "ca.pem"
    extra = f'username = "t1"\npassword = "pw-t1"\nca_file = "{ca}"\n'
    table = start_table(tmp_path, "t1", tls_broker.port, seed=1, extra=extra)
    venue = start_venue(
        tmp_path, tls_broker.port,
        BrokerConfig(host="127.0.0.1", port=tls_broker.port, venue="cafe", table="venue", username="venue", password="pw-venue", ca_file=str(ca)),
    )
    try:
        table.start_game()
        table.play(12)
        assert wait_for(lambda: venue.store.seqs("cafe", "t1") == list(range(1, table.service.log.last_seq + 1)))
        assert table.service.publisher.counters["errors"] == 0
    finally:
        venue.stop()
        table.service.stop()
        tls_broker.kill()


def test_a_client_without_the_ca_or_the_password_is_refused(tmp_path: Path, tls_broker: Broker) -> None:
    tls_broker.start()
    ca = tmp_path / "ca.pem"

    def client(user: str, password: str) -> mqtt.Client:
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"probe-{user}", protocol=mqtt.MQTTv5)
        c.username_pw_set(user, password)
        return c

    no_ca = client("t1", "pw-t1")
    no_ca.tls_set(tls_version=ssl.PROTOCOL_TLS_CLIENT)  # the system's CAs: they never signed this broker
    with pytest.raises(ssl.SSLCertVerificationError):
        no_ca.connect("127.0.0.1", tls_broker.port)

    plain = client("t1", "pw-t1")  # no TLS at all: the TLS listener never answers with a CONNACK
    plain.connect("127.0.0.1", tls_broker.port)
    answered: list[object] = []
    plain.on_connect = lambda c, u, f, reason, p: answered.append(reason)
    for _ in range(20):
        if plain.loop(0.1) != mqtt.MQTT_ERR_SUCCESS:
            break
    assert answered == [] or all(getattr(r, "is_failure", True) for r in answered)

    wrong = client("t1", "not-the-password")
    wrong.tls_set(ca_certs=str(ca), tls_version=ssl.PROTOCOL_TLS_CLIENT)
    refused: list[object] = []
    wrong.on_connect = lambda c, u, f, reason, p: refused.append(reason)
    wrong.connect("127.0.0.1", tls_broker.port)
    for _ in range(600):  # a generous deadline (60 s) for the broker's answer; it comes at once
        if refused or wrong.loop(0.1) != mqtt.MQTT_ERR_SUCCESS:
            break
    assert refused and getattr(refused[0], "is_failure", False), refused
    wrong.disconnect()
    tls_broker.kill()


