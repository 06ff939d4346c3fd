import TellerControl
import TellerConfiguration
import TellerData
import SQLite
public let usage = """
    usage: teller <command> [options]

    commands:
      run                       the terminal: display, touch, keys, sync and the control socket
      status [--data-dir DIR]   print the outbox state as one JSON object
      metrics [--data-dir DIR]  print the metrics of the metrics file once (Prometheus text format)
      journal verify            check the electronic journal's hash chain; name the first broken entry
      journal export --day DAY  print one day's journal entries (YYYY-MM-DD, local day) as JSON lines
      check [--full]            check the whole database file (quick_check; --full: integrity_check)
      drain [--until-empty]     send queued transactions to the host (SIGTERM stops)
      rescue --from DIR --out FILE --terminal-id ID --secret-file PATH
                                a dead terminal's card (mounted read-only): its unacknowledged payments, till
                                events and journal in one signed file; the card is never written
      rescue import FILE        hand a rescue file to the bank as this terminal (same branch); print its counts
      check-config [FILE]       report every problem in the configuration, with line numbers, and in the
                                files it names (ca_file, client_cert, client_key)
      config get KEY            print one setting of teller.conf as the terminal reads it
      config set KEY VALUE...   change settings of teller.conf, checked, keeping comments
                                (--technician-pin-stdin: the PIN's hash, --dry-run: write nothing)
      hash-pin                  print the Argon2id hash of a technician PIN read from stdin
      identity csr|show         the terminal's own certificate for mutual TLS: a new key and its CSR, or the installed one
      scenario FILE...          run QA scenarios in-process, or through uinput with --drive uinput (docs/qa.md)
      ctl COMMAND               talk to the running terminal: \(ControlCommand.usage)
      ctl-bridge --port PATH    serve the control protocol on a virtio-serial port (the virtual device)
      console-lock [--tty TTY]  (root) lock the panel's VT (default /dev/tty1): graphics mode, console
                                keyboard off, made the active VT; --unlock gives it back, --check reports

    status, metrics, journal and check only read: they never create, migrate or write the database. Their exit codes
    (run exits with the same code when it refuses the database):
      0 report printed, 1 other failure, 2 bad usage,
    \(DatabaseRefusal.Kind.usageLines)
      10 status --settled, --drained or --gate: not yet (one line says what)

    every configuration key is also an option: data_dir is --data-dir DIR;
    --config FILE reads FILE instead of /etc/teller/teller.conf
    """

/// What `teller COMMAND --help` prints: the command's own line, its options and
/// where to read more. Every subcommand answers `--help` with exit 0.
public let commandUsage: [String: String] = [
    "run": """
        usage: teller run [--config FILE] [--KEY VALUE]...
        the terminal: draws on the display (DRM, fbdev or offscreen), reads touch and keys,
        drains the queue to the host and serves the control socket. SIGTERM stops it.
        every configuration key is an option (docs/configuration.md).
        """,
    "status": """
        usage: teller status [--config FILE] [--data-dir DIR] [--settled | --drained | --gate]
               teller status --refusal-meaning CODE
        prints the outbox state as one JSON object: counts, pending money, rows that need
        review, the sync engine's last problem. It only reads: it never creates, migrates
        or writes the database. Exit codes are listed in `teller --help`.
        --settled answers in its exit code instead, for scripts: 0 when nothing is queued,
        no rejection is unacknowledged and nothing needs review, 10 when something is
        (one line says what); --drained the same for the queue alone; --gate the health
        gate after an update: 0 when the running terminal (asked over its control socket)
        reaches the bank or nothing is queued, 10 otherwise.
        --refusal-meaning CODE prints what a database refusal's exit code means (exit 0),
        or nothing (exit 1) for a code that is not one: the deploy scripts' words.
        """,
    "metrics": """
        usage: teller metrics [--config FILE] [--data-dir DIR]
        prints what the running terminal writes to metrics_file, once, in Prometheus'
        text format: for a cron job writing node_exporter's textfile directory, or a
        technician. Like status it only reads, with status's exit codes. The clock is
        judged against this build's date only: the running terminal also knows the bank's time.
        """,
    "check": """
        usage: teller check [--full] [--config FILE] [--data-dir DIR]
        reads the whole of teller.db with SQLite's quick_check (--full: integrity_check, which
        also compares each index with its table, then the outbox's counts per state with its
        rows) and prints `ok: …` (exit 0), or names what
        is damaged (exit 7). Opening the database does not read it all: the running terminal
        checks the whole file in the background a minute after start and daily, and this is
        the same check on demand (docs/architecture.md). Like status it only reads, with
        status's exit codes; on a card with years of history it takes seconds.
        """,
    "journal": """
        usage: teller journal verify [--day YYYY-MM-DD] [--config FILE] [--data-dir DIR]
               teller journal export --day YYYY-MM-DD [--config FILE] [--data-dir DIR]
        the electronic journal: every sign-in and sign-out, payment, answer from the bank,
        void and reversal, each entry chained to the one before by its SHA-256 hash.
        verify walks the chain and prints `ok: N entries` (exit 0) or the first broken
        entry and what is wrong with it: a hash mismatch (its contents changed), a
        prev_hash mismatch (the link to the entry before) or a gap in the sequence (entries
        removed) (exit 1). verify --day checks one day's entries and their link to the entry
        before, in a time that does not grow with the years kept. export prints each entry of one day, on the terminal's wall clock
        (time_zone), as one JSON object a line. Like status they only read, with status's
        exit codes for a refused database; 2 for bad usage.
        """,
    "drain": """
        usage: teller drain [--until-empty] [--config FILE] [--KEY VALUE]...
        sends queued transactions to the host without a display. --until-empty exits 0
        once nothing is queued; otherwise it runs until SIGTERM.
        """,
    "rescue": """
        usage: teller rescue --from DIR --out FILE --terminal-id ID (--secret-file PATH | --secret-stdin) [--force]
               teller rescue import FILE [--config FILE] [--KEY VALUE]...
        the first form reads DIR, the data directory of a dead terminal's card mounted read-only
        (mount -o ro,noload; docs/deploy.md, "A dead terminal's card"), on any machine with teller:
        teller.db and its -wal and -shm are copied to a private directory and the copy is read,
        so the card is never written. FILE gets every payment the bank has not acknowledged
        (queued, sending, needs review) with its idempotency key and frozen body, the till events
        not yet recorded and the journal, signed with HMAC-SHA256 under the dead terminal's secret
        (from the fleet's Vault; --secret-stdin reads it from standard input). ID is that terminal's
        id. FILE is written atomically, mode 0600, and an existing FILE is refused unless --force.
        A secret that does not open the card's sealed refresh token is refused.
        exit codes: 0 written, 1 other failure (nothing written), 2 bad usage, 3 to 9 the card's
        teller.db refused, as for status (3 no teller.db in DIR, 5 not Teller's, 7 damaged, 8 unreadable).
        import sends FILE to the bank through this terminal's host connection (host_url, its TLS,
        client certificate and terminal secret, as teller run) and prints what the bank did: payments
        posted now, already posted (the dead terminal had sent them, or FILE was imported before),
        refused with the bank's reason. The bank posts each payment once under its original key.
        exit codes: 0 imported (the counts printed), 1 the bank could not be asked, 2 bad usage,
        11 the bank refused the file (a changed byte, another terminal's secret, another branch).
        """,
    "check-config": """
        usage: teller check-config [--client-key-stdin] [FILE]
        reads FILE (default /etc/teller/teller.conf) and reports every problem with its
        line; exit 0 when there is none. It also reads the files it names: ca_file,
        client_cert and client_key must exist, be regular files, hold PEM, be valid now,
        and the key must belong to the certificate. --client-key-stdin takes the key from
        standard input (systemd-creds decrypt … | teller check-config --client-key-stdin).
        """,
    "config": """
        usage: teller config [--config FILE] get KEY
               teller config [--config FILE] set [--dry-run] [--technician-pin-stdin] [--] [KEY VALUE]...
        reads or changes teller.conf (default /etc/teller/teller.conf) with the terminal's
        own parser; scripts and technicians use it instead of sed or an editor.
        get prints KEY's value as the terminal reads it: comment dropped, quotes removed.
        set changes every pair in one write, only when the terminal would accept the
        whole file (each value's rule and the rules between keys); other lines, comments,
        owner and mode are kept, and the write is atomic and survives a power cut. The
        terminal reads the file when it starts. After --, a VALUE may start with -.
        set prints the keys whose value changed, one a line (never a value); nothing when
        the file already says so, and then it is not written. --dry-run checks the same
        and prints the keys that would change, writing nothing. --technician-pin-stdin
        reads a PIN (4 to 12 digits) from stdin and sets technician_pin_hash to its
        Argon2id hash, keeping the stored hash when it already verifies that PIN: the
        PIN and its hash are never on a command line.
        exit codes: 0 done (get: value printed), 1 get: KEY is not set, nothing printed
        (the terminal uses its default), 2 bad usage or unknown KEY, 3 the file cannot be
        read or has a broken line (get: also KEY set twice or to a refused value),
        4 set: the terminal would refuse the result, nothing written, 5 set: the write
        failed, the old file is intact. every problem names the file and line.
        """,
    "identity": """
        usage: teller identity csr --csr-out FILE [--config FILE] | systemd-creds encrypt --name=teller-client-key --with-key=auto - CRED
               systemd-creds decrypt --name=teller-client-key CRED - | teller identity csr --key-stdin --csr-out FILE [--config FILE]
               teller identity show [--key-stdin] [--config FILE]
        csr makes a new P-256 key and a certificate signing request whose commonName is
        terminal_id. The request goes to FILE; the key goes to standard output, only into a
        pipe, to be sealed at once (deploy/provision --client-csr does both); with --key-stdin
        it renews: the request is for the key piped in, and nothing is printed. The bank's CA
        signs the request; install the certificate with deploy/provision --client-cert.
        show prints the installed certificate: subject, issuer, validity, days left and where
        the key comes from (--key-stdin: a piped key); exit 1 when the pair does not load, names
        another terminal or is not valid now.
        """,
    "hash-pin": """
        usage: teller hash-pin < pin
        reads a technician PIN (4 to 12 digits) from stdin and prints its Argon2id hash
        for technician_pin_hash.
        """,
    "scenario": """
        usage: teller scenario FILE... [--drive uinput] [--goldens DIR] [--update-goldens]
        runs QA scenarios (docs/qa.md) in-process, or through uinput on a real kernel.
        """,
    "ctl": """
        usage: teller ctl [--socket PATH] [--timeout SECONDS] COMMAND
        talks to the running terminal over its control socket: \(ControlCommand.usage)
        TELLER_CONTROL_SOCKET overrides the socket path. --timeout: how long to wait for the
        answer, which comes once the command has run (default \(ControlClient.defaultTimeout) s, at most \(ControlClient.longestTimeout)).
        """,
    "console-lock": """
        usage: teller console-lock [--tty /dev/ttyN]
               teller console-lock --unlock [--tty /dev/ttyN]
               teller console-lock --check [--tty /dev/ttyN]
        locks the virtual terminal the terminal draws over (default /dev/tty1) for the kiosk:
        graphics mode (KDSETMODE KD_GRAPHICS: the kernel draws no console text on it, also
        while teller restarts), the console keyboard off (KDSKBMODE K_OFF: no typing into a
        console, no Ctrl+Alt+Fn switch, no Ctrl+Alt+Del from the keymap; teller still reads
        its keys through evdev), and makes it the active VT (VT_ACTIVATE). It changes only
        what differs and prints one line saying what it did. Needs root.
        --unlock gives the VT back to a technician: text mode, keyboard in Unicode.
        --check prints the display and keyboard modes and changes nothing.
        exit codes: 0 done (--check: locked), 1 the path is not a VT or a call on it failed
        (the error names the path and the call), 2 bad usage, 3 --check: not locked.
        """,
    "ctl-bridge": """
        usage: teller ctl-bridge --port PATH [--socket PATH]
        relays command lines from a virtio-serial port (or a listening UNIX socket standing in
        for one) to the terminal's control socket, one line each way, so `teller ctl` on the
        host reaches the virtual device (docs/qa.md).
        """,
]
