"""Support tickets at the loan desk: tb-env's shared ticketing component, in this desk's
words. A ticket is a member's and may be about one of their loans (one open ticket per
loan); escalations go to the branch librarian."""

from tb_env.components.ticketing import Escalation, Link, Party, Ticketing, TicketPolicy

TICKETING = Ticketing(
    party=Party("member_id", "members.id", noun="member", example="M-007"),
    links=(Link("loan_id", "loans.id", noun="loan", example="L-012", one_open_ticket=True),),
    categories=("damaged_item", "lost_item", "fines", "other"),
    list_tool="list_member_tickets",
    ticket_example="T-0042",
    escalation=Escalation(to="the branch librarian", who="the branch librarian", within="within two days"),
    policy=TicketPolicy(escalate_when="when a member reports a lost or damaged book, or asks for a librarian"),
)
