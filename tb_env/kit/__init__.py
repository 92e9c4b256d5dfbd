"""The task-authoring kit: what a domain author uses to write tasks and prove them right.

- `spec`: the vocabulary of a template: `Caller` (persona, goal, facts it gives when
  asked), `Golden` calls, assertions (`exists`, `unchanged`, `says` with `fact(..., why)`,
  `must_not_disclose`, `no_call`, `called`) and wrong paths (`drop`, `append`, `replace`, `reply`);
- `scene`: `Pool` (split-disjoint ids and names) and `Scene` (one task's rows);
- `templates`: `Templates`, a domain's registry of templates: generates k instances
  each, writes the YAML, checks it is current, validates it;
- `validate`: `tb-env validate`, the executable contract every task must meet (the
  oracle scores 1, doing nothing 0, each wrong path 0) plus its metamorphic probes;
- `probes`: those probes: legitimate agents that must score 1 (a cautious dialogue,
  reordered independent writes, extra reads, a paraphrased reply) and sloppy ones that
  must score 0 (verify then refuse generically, a leak, a wrong fact, a forbidden call).

Imports the episode core and below (`tb_env.core`, `tb_env.parties`, `tb_env.domain`);
the CLI and the packs' generators import it. docs/adding-a-domain.md shows it at work.
"""

from tb_env.kit.scene import Pool, Scene
from tb_env.kit.spec import (
    Caller,
    Golden,
    TaskSpec,
    absent,
    append,
    call,
    called,
    count,
    drop,
    exists,
    fact,
    grounded,
    must_not_disclose,
    no_call,
    outcome,
    outcomes,
    replace,
    reply,
    says,
    says_not,
    still_owing,
    unchanged,
)
from tb_env.kit.templates import Templates

__all__ = [
    "Caller",
    "Golden",
    "Pool",
    "Scene",
    "TaskSpec",
    "Templates",
    "absent",
    "append",
    "call",
    "called",
    "count",
    "drop",
    "exists",
    "fact",
    "grounded",
    "must_not_disclose",
    "no_call",
    "outcome",
    "outcomes",
    "replace",
    "reply",
    "says",
    "says_not",
    "still_owing",
    "unchanged",
]
