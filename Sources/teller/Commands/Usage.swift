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
