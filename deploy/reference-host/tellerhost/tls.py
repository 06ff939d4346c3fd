"""https for the reference host and the hostile host: one server context, TLS 1.2 or later;
for the reference host, optionally mutual TLS (--tls-client-ca): every client presents a
certificate that a given CA signed, and its subject's commonName is the terminal id."""

import socket
import ssl
import time

HANDSHAKE_TIMEOUT = 10
LINGER_SECONDS = 1.0


class ClientCAError(ValueError):
    """--tls-client-ca names a file that is not one or more PEM CA certificates."""


def server_context(cert_file, key_file, client_ca_file=None):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert_file, key_file)
    if client_ca_file is not None:
        require_client_certificates(context, client_ca_file)
    return context


def require_client_certificates(context, ca_file):
    """The TLS layer itself refuses a client without a certificate, with one another CA signed,
    or with one out of its validity period."""
    try:
        context.load_verify_locations(cafile=ca_file)
    except (OSError, ssl.SSLError) as error:
        raise ClientCAError(f"cannot load {ca_file}: {error}") from error
    if context.cert_store_stats()["x509_ca"] == 0:
        raise ClientCAError(f"{ca_file} holds no CA certificate")
    context.verify_mode = ssl.CERT_REQUIRED


def requires_client_certificate(connection):
    return isinstance(connection, ssl.SSLSocket) and connection.context.verify_mode == ssl.CERT_REQUIRED


def handshake(connection, refused=None):
    """Completes a server-side handshake in the connection's thread. False (connection unusable) if it fails;
    True at once for plain TCP. `refused(reason)` is called with why a handshake failed."""
    if not isinstance(connection, ssl.SSLSocket):
        return True
    previous = connection.gettimeout()
    try:
        connection.settimeout(HANDSHAKE_TIMEOUT)
        connection.do_handshake()
        connection.settimeout(previous)
        return True
    except (OSError, ssl.SSLError) as error:
        if refused is not None:
            refused(refusal_reason(error))
            linger(connection)
        return False


def linger(connection):
    """After a refused handshake: TLS 1.3 lets a client finish its side of the handshake before the
    server has judged its certificate, so the client may already have sent its request. Closing with
    that unread would reset the connection, and the client could lose the alert that says why
    ("certificate required", "unknown ca", "certificate expired"). So: send FIN after the alert, then
    read and discard what the client still sends, until it closes (at most LINGER_SECONDS)."""
    deadline = time.monotonic() + LINGER_SECONDS
    try:
        socket.socket.shutdown(connection, socket.SHUT_WR)
        while (left := deadline - time.monotonic()) > 0:
            connection.settimeout(left)
            if not socket.socket.recv(connection, 65536):
                break
    except OSError:
        pass


def refusal_reason(error):
    """One line on why a handshake failed: the verification message for a client certificate
    the host refused, OpenSSL's reason otherwise."""
    if isinstance(error, ssl.SSLCertVerificationError) and error.verify_message:
        return f"client certificate refused: {error.verify_message}"
    if isinstance(error, ssl.SSLError) and error.reason == "PEER_DID_NOT_RETURN_A_CERTIFICATE":
        return "no client certificate"
    if isinstance(error, ssl.SSLError) and error.reason:
        return error.reason.lower().replace("_", " ")
    return str(error) or type(error).__name__


def peer_terminal(connection):
    """The terminal id a verified client certificate names: its subject's one commonName.
    None without mutual TLS; "" for a certificate with no commonName or several."""
    if not requires_client_certificate(connection):
        return None
    certificate = connection.getpeercert() or {}
    names = [value for rdn in certificate.get("subject", ()) for key, value in rdn if key == "commonName"]
    return names[0] if len(names) == 1 else ""


def url(server_address, secure):
    host, port = server_address[:2]
    scheme = "https" if secure else "http"
    return f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"


def add_arguments(parser, client_ca=False):
    parser.add_argument("--tls-cert", metavar="FILE", help="serve https with this PEM certificate (chain); needs --tls-key")
    parser.add_argument("--tls-key", metavar="FILE", help="PEM private key of --tls-cert")
    if client_ca:
        parser.add_argument("--tls-client-ca", metavar="FILE",
                            help="mutual TLS: require a client certificate signed by a CA in this PEM file; "
                                 "its subject's commonName is the terminal id (needs --tls-cert)")


def context_from_arguments(parser, args):
    client_ca = getattr(args, "tls_client_ca", None)
    if bool(args.tls_cert) != bool(args.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    if client_ca is not None and not args.tls_cert:
        parser.error("--tls-client-ca needs --tls-cert and --tls-key")
    if not args.tls_cert:
        return None
    try:
        context = server_context(args.tls_cert, args.tls_key)
    except (OSError, ssl.SSLError) as error:
        parser.error(f"cannot load --tls-cert/--tls-key: {error}")
    if client_ca is not None:
        try:
            require_client_certificates(context, client_ca)
        except ClientCAError as error:
            parser.error(f"--tls-client-ca: {error}")
    return context

