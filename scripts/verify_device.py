"""Run the whole verification catalogue on one device and write one JSON result file.

Usage: python scripts/verify_device.py --device GPU [--dtype float32] [-j N] [-o FILE]
       python scripts/verify_device.py --device Ascend --apis torch.sort torch.round

For a GPU or Ascend machine with torch and MindSpore installed: the results also land in
apiscan's verification cache under that device (a cached result is keyed by device), so a
scan run with ``--verify-device GPU`` on a machine that shares the cache shows them. Default
output: ``verify-<device>-<dtype>-mindspore<version>.json`` in the current directory.

Result format (``"format": 1``)::

    {
      "format": 1,
      "device": "GPU", "dtype": "float32",
      "torch": "2.13.0", "mindspore": "2.10.0",
      "host": "<hostname>", "started": "<UTC ISO time>", "seconds": 123.4, "jobs": 2,
      "summary": {"pass": n, "fail": n, "error": n, "skipped": n},
      "claims_not_holding": ["torch.round[claim: torch.round(x, decimals=1)]", ...],
      "documented_elsewhere": ["<case id>", ...],   # no kernel here; docs list other devices
      "dtype_differs": {"<case id>": "output 1: int64 (torch) vs int32 (MindSpore)", ...},
      "results": [<CaseResult as a dict: case_id, api, status, max_abs, detail, log, ...>, ...]
    }

Exit status: 0 when it ran (whatever the verdicts), 2 when torch or MindSpore is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from apiscan.cli.verify import DEVICES, broken_claims, missing_frameworks
from apiscan.verify.results import DOCUMENTED_ELSEWHERE_PREFIX, framework_versions
from apiscan.verify.runner import DEFAULT_TIMEOUT, default_cache, run_parallel

FORMAT = 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=DEVICES, required=True)
    parser.add_argument("--dtype", default="float32", choices=("float32", "float16"))
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("-o", "--output", type=Path, default=None)
    parser.add_argument("--apis", nargs="*", default=None, help="only these APIs' cases")
    parser.add_argument("--no-cache", action="store_true", help="run every case again")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    args = parser.parse_args()
    missing = missing_frameworks()
    if missing:
        print(f"verify_device: {' and '.join(missing)} not installed", file=sys.stderr)
        return 2
    from apiscan.verify.catalogue import CASES

    cases = [c for c in CASES if args.apis is None or c.api in set(args.apis)]
    torch_version, ms_version = framework_versions()
    started = datetime.now(UTC)
    clock = time.monotonic()
    cache = None if args.no_cache else default_cache()
    results = run_parallel(cases, args.jobs, args.device, args.dtype, args.timeout, cache)
    doc = {
        "format": FORMAT,
        "device": args.device,
        "dtype": args.dtype,
        "torch": torch_version,
        "mindspore": ms_version,
        "host": socket.gethostname(),
        "started": started.isoformat(timespec="seconds"),
        "seconds": round(time.monotonic() - clock, 1),
        "jobs": args.jobs,
        "summary": dict(sorted(Counter(r.status for r in results).items())),
        "claims_not_holding": [r.case_id for r in broken_claims(results)],
        "documented_elsewhere": [
            r.case_id for r in results if r.detail.startswith(DOCUMENTED_ELSEWHERE_PREFIX)
        ],
        "dtype_differs": {r.case_id: r.dtype_diff for r in results if r.dtype_diff},
        "results": [r.to_dict() for r in results],
    }
    output = args.output or Path(f"verify-{args.device}-{args.dtype}-mindspore{ms_version}.json")
    output.write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{output}: {doc['summary']} in {doc['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
