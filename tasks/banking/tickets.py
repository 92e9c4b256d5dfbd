"""Banking's support tickets: the shared ticketing component (`tb_env.components.ticketing`)
in this bank's words. A ticket is a customer's and may be about one of their accounts,
cards or disputes (one ticket at a time per dispute); escalations go to the specialist
team. `schema.py` declares its tables, `__init__.py` adds its tools and policy section.
"""

from tb_env.components.ticketing import Escalation, Link, Party, Ticketing, TicketPolicy

TICKETING = Ticketing(
    party=Party("customer_id", "customers.id", noun="customer", example="CU-0042"),
    links=(
        Link("account_id", "accounts.id", noun="account", example="AC-0042"),
        Link("card_id", "cards.id", noun="card", example="CD-0042"),
        Link("dispute_id", "disputes.id", noun="dispute", example="DP-00042", one_open_ticket=True),
    ),
    categories=("card", "dispute", "transfer", "fee", "account", "kyc", "other"),
    list_tool="list_customer_tickets",
    ticket_example="T-1042",
    escalation=Escalation(to="the specialist team", who="a specialist", within="within one business day"),
    policy=TicketPolicy(
        note_examples="a dispute, a card replacement, a fee refund, a transfer",
        keep_open_while="a dispute linked to the ticket is still `open`",
        escalate_when=(
            "when a supervisor denies an approval, or when the customer explicitly asks for a supervisor or manager"
        ),
    ),
)
