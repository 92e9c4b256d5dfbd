"""Evaluation: campaigns of k trials per task, their results files and reports.

- `campaign`: `tb-env eval`, bounded concurrency, resumable, retries infra errors;
- `results`: one JSON line per trial, appended so that nothing written is lost;
- `metrics`: pass@1, pass^k, pass@k as pure functions;
- `report`: `tb-env report` / `compare`, rebuilt from the results lines alone;
- `pricing`: dollar figures per trial, success and consistent task;
- `plots`: the report's figures and HTML page.

Imports the episode core and everything below it, and `tb_env.serving.distributed` for
campaigns placed on Ray.
"""
