let usage = """
    usage: teller <command> [options]

    commands:
      run                       the terminal: display, touch, keys, sync and the control socket
      status [--data-dir DIR]   print the outbox state as one JSON object
      drain [--until-empty]     send queued transactions to the host (SIGTERM stops)
      check-config [FILE]       report every problem in the configuration, with line numbers
      hash-pin                  print the Argon2id hash of a technician PIN read from stdin
      ctl COMMAND               talk to the running terminal: \(ControlCommand.usage)

    every configuration key is also an option: data_dir is --data-dir DIR;
    --config FILE reads FILE instead of /etc/teller/teller.conf
    """
