import sys

from apiscan.cli.main import main

sys.exit(main())
