let usage = """
    usage: teller <command> [options]

    commands:
      status [--data-dir DIR]   print the outbox state as one JSON object
      drain [--until-empty]     send queued transactions to the host (SIGTERM stops)

    every configuration key is also an option: data_dir is --data-dir DIR;
    --config FILE reads FILE instead of /etc/teller/teller.conf
    """
