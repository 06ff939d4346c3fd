# teller.fleet.provision's action: the terminal secret and the technician PIN
# travel to the terminal only on the module's standard input (pipelining),
# whatever the configuration says. Ansible writes a module that is not
# pipelined, arguments and all, to the target as AnsiballZ_provision.py, and
# ANSIBLE_KEEP_REMOTE_FILES=1 (a technician debugging a run) turns
# pipelining off and keeps that file: on a card prepared in a chroot, the
# secret would then sit on the card's storage. A connection that cannot
# pipeline is refused by name before anything is sent.
from __future__ import annotations

from ansible.plugins.action import ActionBase

SECRET_OPTIONS = ("terminal_secret", "technician_pin")


class ActionModule(ActionBase):
    TRANSFERS_FILES = False

    def _is_pipelining_enabled(self, module_style, wrap_async=False):
        """Pipelined wherever the connection and become method can, even with
        pipelining off in the configuration or remote files kept."""
        connection = self._connection
        if module_style != "new" or wrap_async or not connection.has_pipelining:
            return False
        return not connection.become or connection.become.pipelining

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        del tmp
        carried = [name for name in SECRET_OPTIONS if self._task.args.get(name) not in (None, "")]
        if carried and not self._is_pipelining_enabled("new"):
            become = self._connection.become.name if self._connection.become else None
            result.update(failed=True, msg=(
                "teller.fleet.provision sends %s only on the module's standard input, and the %s connection%s cannot "
                "pipeline: it would write them to the terminal's disk. Use ssh or community.general.chroot, with "
                "become sudo or none." % (" and ".join(carried), self._connection.transport,
                                          " with become %s" % become if become else "")))
            return result
        result.update(self._execute_module(module_name="teller.fleet.provision", module_args=self._task.args,
                                           task_vars=task_vars))
        return result
