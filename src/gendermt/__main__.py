import sys

from gendermt.cli import main

sys.exit(main())
