let usage = """
    usage: teller <command> [options]

    commands:
      status [--data-dir DIR]   print the outbox state as one JSON object
    """
