#!/bin/sh
# Runs inside the virtual device: the scenarios listed in /qa/run/list,
# through uinput, with screendumps and power cuts asked of the host on
# /dev/ttyS1. After a power cut the host boots again with
# teller.from=FILE:LINE, and the run resumes there.
from=$(sed -n 's/.*teller\.from=\([^ ]*\).*/\1/p' /proc/cmdline)
line=1
list=$(cat /qa/run/list)
if [ -n "$from" ]; then
    file=${from%:*}
    line=${from##*:}
    list=$(sed -n "\\#^$file\$#,\$p" /qa/run/list)
fi
teller scenario $list --drive uinput --socket /run/teller/control.sock --host-channel /dev/ttyS1 --from-line "$line"
echo "DONE $?" >/dev/ttyS1
