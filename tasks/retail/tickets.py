"""Retail's support tickets: the shared ticketing component (`tb_env.components.ticketing`)
in this store's words. A ticket is a customer's, may be about one of their orders (one
ticket at a time per order), and escalates to the specialist team, who call back within
24 hours; `schema.py` declares its tables, `__init__.py` adds its tools and policy section.
"""

from tb_env.components.ticketing import Escalation, Link, Party, Ticketing, TicketPolicy

TICKETING = Ticketing(
    party=Party("customer_id", "customers.id", noun="customer", example="C-0042", find_tool="find_customer"),
    links=(Link("order_id", "orders.id", noun="order", example="O-1001", one_open_ticket=True),),
    categories=("shipping", "return", "refund", "order_change", "account", "product", "other"),
    list_tool="list_customer_tickets",
    ticket_example="T-2041",
    escalation=Escalation(to="the specialist team", who="a specialist", within="within 24 hours"),
    policy=TicketPolicy(
        note_examples="a return, a refund, a replacement, an address fix, a declined close request",
        keep_open_while="a shipment of the ticket's order has an open shipping exception",
        escalate_when=(
            "when a manager denies a refund approval, or when the customer explicitly asks for a manager or supervisor"
        ),
    ),
)
