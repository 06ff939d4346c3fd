"""Wall-clock helpers: every timestamp on the wire is RFC 3339 UTC with milliseconds."""

import datetime
import time


def now():
    return time.time()


def iso(epoch):
    stamp = datetime.datetime.fromtimestamp(epoch, tz=datetime.timezone.utc)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z"
