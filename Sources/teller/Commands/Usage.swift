let usage = """
    usage: teller <command> [options]

    commands:
      run                       the terminal: display, touch, keys, sync and the control socket
      status [--data-dir DIR]   print the outbox state as one JSON object
      drain [--until-empty]     send queued transactions to the host (SIGTERM stops)
      check-config [FILE]       report every problem in the configuration, with line numbers
      hash-pin                  print the Argon2id hash of a technician PIN read from stdin
      scenario FILE...          run QA scenarios in-process, or through uinput with --drive uinput (docs/qa.md)
      ctl COMMAND               talk to the running terminal: \(ControlCommand.usage)

    status only reads: it never creates, migrates or writes the database. Its exit codes:
      0 report printed, 1 other failure, 2 bad usage, 3 no database (data directory or
      teller.db missing), 4 teller.db is empty (0 bytes), 5 not a Teller database,
      6 schema newer than this teller, 7 damaged or truncated, 8 cannot be read
      (permission, or a -wal without its -shm), 9 schema older (teller run upgrades it)

    every configuration key is also an option: data_dir is --data-dir DIR;
    --config FILE reads FILE instead of /etc/teller/teller.conf
    """

/// What `teller COMMAND --help` prints: the command's own line, its options and
/// where to read more. Every subcommand answers `--help` with exit 0.
let commandUsage: [String: String] = [
    "run": """
        usage: teller run [--config FILE] [--KEY VALUE]...
        the terminal: draws on the display (DRM, fbdev or offscreen), reads touch and keys,
        drains the queue to the host and serves the control socket. SIGTERM stops it.
        every configuration key is an option (docs/configuration.md).
        """,
    "status": """
        usage: teller status [--config FILE] [--data-dir DIR]
        prints the outbox state as one JSON object: counts, pending money, rows that need
        review, the sync engine's last problem. It only reads: it never creates, migrates
        or writes the database. Exit codes are listed in `teller --help`.
        """,
    "drain": """
        usage: teller drain [--until-empty] [--config FILE] [--KEY VALUE]...
        sends queued transactions to the host without a display. --until-empty exits 0
        once nothing is queued; otherwise it runs until SIGTERM.
        """,
    "check-config": """
        usage: teller check-config [FILE]
        reads FILE (default /etc/teller/teller.conf) and reports every problem with its
        line; exit 0 when there is none.
        """,
    "hash-pin": """
        usage: teller hash-pin < pin
        reads a technician PIN (4 to 8 digits) from stdin and prints its Argon2id hash
        for technician_pin_hash.
        """,
    "scenario": """
        usage: teller scenario FILE... [--drive uinput] [--goldens DIR] [--update-goldens]
        runs QA scenarios (docs/qa.md) in-process, or through uinput on a real kernel.
        """,
    "ctl": """
        usage: teller ctl [--socket PATH] COMMAND
        talks to the running terminal over its control socket: \(ControlCommand.usage)
        TELLER_CONTROL_SOCKET overrides the socket path.
        """,
]
