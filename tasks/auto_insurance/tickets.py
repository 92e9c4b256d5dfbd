"""Auto insurance's support tickets: the shared ticketing component
(`tb_env.components.ticketing`) in this carrier's words. A ticket is a policyholder's and
may be about one of their policies and claims (one ticket at a time per claim; a claim
links its policy too); the adjuster reads a claim ticket's notes, and escalations go to
a supervisor. `schema.py` declares its tables, `__init__.py` adds its tools and policy
section.
"""

from tb_env.components.ticketing import Escalation, Link, Party, Ticketing, TicketPolicy

TICKETING = Ticketing(
    party=Party(
        "policyholder_id", "policyholders.id", noun="policyholder", example="PH-0042", caller="caller",
        find_tool="find_policyholder",
    ),
    links=(
        Link("policy_id", "policies.id", noun="policy", example="POL-10001"),
        Link(
            "claim_id", "claims.id", noun="claim", example="CLM-10042", owner="policy_id.policyholder_id",
            one_open_ticket=True, fills=("policy_id",),
        ),
    ),
    categories=("billing", "claim", "policy_change", "underwriting", "other"),
    list_tool="list_tickets",
    ticket_example="T-2041",
    escalation=Escalation(to="a supervisor", who="a supervisor", within="within one business day"),
    note_hint="The adjuster on a claim reads the notes of the claim's ticket.",
    policy=TicketPolicy(
        create_also="when this policy says so (injury claims, corrections for an assigned adjuster) or",
        keep_open_while="the claim it is linked to is still open (`reported` or `assigned`)",
        escalate_when="for injury claims, and when the caller explicitly asks for a supervisor",
    ),
)
