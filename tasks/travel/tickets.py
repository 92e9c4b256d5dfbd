"""Travel's support tickets: the shared ticketing component (`tb_env.components.ticketing`)
in this agency's words. A ticket is a traveller's, may be about one of their bookings
(one ticket at a time per booking), and escalates to the senior travel team, who call
back within one business day; `schema.py` declares its tables, `__init__.py` adds its
tools and policy section.
"""

from tb_env.components.ticketing import Escalation, Link, Party, Ticketing, TicketPolicy

TICKETING = Ticketing(
    party=Party("traveller_id", "travellers.id", noun="traveller", example="TR-0042", find_tool="find_traveller"),
    links=(Link("booking_id", "bookings.id", noun="booking", example="BK-1001", one_open_ticket=True),),
    categories=("booking_change", "cancellation", "service_issue", "billing", "loyalty", "approval", "other"),
    list_tool="list_traveller_tickets",
    ticket_example="T-1042",
    escalation=Escalation(to="the senior travel team", who="a senior agent", within="within one business day"),
    policy=TicketPolicy(
        note_examples=(
            "a change, a cancellation, an approval request, compensation, points, an invoice fix, a declined request"
        ),
        escalate_when="when the traveller contests a manager's denial, or explicitly asks for a supervisor",
    ),
)
