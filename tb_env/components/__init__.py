"""Building blocks a domain pack composes instead of writing them again.

- `ticketing`: the support-ticket system of a service desk (the `tickets` and
  `ticket_notes` tables, the ticket tools, the policy section that governs them),
  configured in the words of the domain that includes it;
- `contact`: a person's US phone number, normalised one way, and the tool that changes it.
- `identity`: the `identity_verifications` table, the name look-up, the refusal and the
  record of identity verification (each pack keeps what counts as proof).

A component is what the built-in packs share and what a team's pack can include too;
it stays at the level of a pack: it imports only `tb_env.domain` and `tb_env.errors`.
"""
