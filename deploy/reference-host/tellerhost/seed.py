"""The demo data set of docs/reference-host.md. Seeding twice changes nothing:
existing rows, balances included, are left as they are."""

# iban, holder, currency, balance, hold, status (amounts in minor units)
ACCOUNTS = [
    ("DE54500105170426397158", "Anna Schmidt", "EUR", 1_250_000, 0, "active"),
    ("DE98100700002431457802", "Jonas Weber", "EUR", 4_250, 0, "active"),
    ("FR7630004008230001038247191", "Camille Martin", "EUR", 830_000, 30_000, "active"),
    ("NL11INGB0007312458", "Daan de Vries", "EUR", 1_999, 0, "active"),
    ("GB45BARC20035874120364", "Oliver Brown", "GBP", 500_000, 0, "active"),
    ("BE66001482756043", "Lukas Peeters", "EUR", 100_000, 0, "blocked"),
    ("AT371200052066431875", "Gruber Bäckerei GmbH", "EUR", 75_000_000, 250_000, "active"),
    ("ES9121000418450200051332", "Lucía García", "EUR", 0, 0, "active"),
]

# operator id, display name, PIN, active
OPERATORS = [
    ("1001", "Maria Keller", "1234", True),
    ("1002", "Tom Becker", "2580", True),
    ("1003", "Lea Wagner", "4711", True),
    ("1004", "Paul Fischer", "1111", False),
    # The branch's supervisor in the demo configurations (supervisors = 2001).
    ("2001", "Sabine Roth", "2468", True),
]

# terminal id, secret, branch (a rescue file is imported by a terminal of the same branch)
TERMINALS = [
    ("T-0001", "demo-secret-T-0001", "demo-branch"),
    ("T-0002", "demo-secret-T-0002", "demo-branch"),
]


def seed_demo(store):
    for iban, holder, currency, balance, hold, status in ACCOUNTS:
        store.add_account(iban, holder, currency, balance, hold, status)
    for operator_id, name, pin, active in OPERATORS:
        store.add_operator(operator_id, name, pin, active)
    for terminal_id, secret, branch in TERMINALS:
        store.set_terminal(terminal_id, secret, branch)
