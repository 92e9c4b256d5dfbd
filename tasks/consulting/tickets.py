"""The service desk's tickets: the shared ticketing component (`tb_env.components.ticketing`)
in this desk's words. A ticket is for an employee (raised by them or their manager) and
may name any record it is about (`linked_ref`). The desk resolves tickets itself when the
request is done, parks them as `pending`, lets the agent choose the priority, routes on
the category (it is graded) and escalates to one of four teams.
`schema.py` declares its tables, `__init__.py` adds its tools and policy section.
"""

from tb_env.components.ticketing import Escalation, Link, Party, Ticketing, TicketPolicy

TICKETING = Ticketing(
    party=Party("employee_id", "employees.id", noun="employee", example="E-1042", verified=False, caller="caller"),
    links=(
        Link("linked_ref", None, noun="record", example="AS-10042",
             kinds="an access request, hardware order, asset, leave request, licence pool or case"),
    ),
    categories=("access", "licence", "hardware", "onboarding", "offboarding", "hr", "security", "other"),
    list_tool="list_employee_tickets",
    ticket_example="T-1042",
    escalation=Escalation(
        to="a specialist team", who="the team", within="within one business day",
        teams=("security", "procurement", "hr", "it_ops"), home_team="service_desk",
    ),
    done="resolved",
    waiting="pending",
    priorities=("low", "normal", "high"),
    graded_category=True,
    policy=TicketPolicy(
        create_also="where this policy says so (lost or stolen devices, no licence seat to reclaim) or",
        closing=(
            "When you are done with the request behind a ticket, set its status (`update_ticket_status`): "
            "`resolved` when the request is fully done, `pending` when it now waits on an approver or a later "
            "date; when you declined the request, leave the status as it is (the note explains why)."
        ),
        keep_open_while="its linked record (`linked_ref`) is still waiting for approval",
        escalate_when="where this policy says so, and when the caller explicitly asks for a supervisor (to `it_ops`)",
    ),
)
