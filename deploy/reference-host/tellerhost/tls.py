"""https for the reference host and the hostile host: one server context, TLS 1.2 or later."""

import ssl

HANDSHAKE_TIMEOUT = 10


def server_context(cert_file, key_file):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert_file, key_file)
    return context


def handshake(connection):
    """Completes a server-side handshake in the connection's thread. False (connection unusable) if it fails;
    True at once for plain TCP."""
    if not isinstance(connection, ssl.SSLSocket):
        return True
    previous = connection.gettimeout()
    try:
        connection.settimeout(HANDSHAKE_TIMEOUT)
        connection.do_handshake()
        connection.settimeout(previous)
        return True
    except (OSError, ssl.SSLError):
        return False


def url(server_address, secure):
    host, port = server_address[:2]
    scheme = "https" if secure else "http"
    return f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"


def add_arguments(parser):
    parser.add_argument("--tls-cert", metavar="FILE", help="serve https with this PEM certificate (chain); needs --tls-key")
    parser.add_argument("--tls-key", metavar="FILE", help="PEM private key of --tls-cert")


def context_from_arguments(parser, args):
    if bool(args.tls_cert) != bool(args.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    if not args.tls_cert:
        return None
    try:
        return server_context(args.tls_cert, args.tls_key)
    except (OSError, ssl.SSLError) as error:
        parser.error(f"cannot load --tls-cert/--tls-key: {error}")

