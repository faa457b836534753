import sys

from apiscan.isolation import isolate

isolate()  # before any other import: ``python -m`` put the working directory on sys.path

from apiscan.cli.main import main  # noqa: E402

sys.exit(main())
