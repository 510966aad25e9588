"""python -m tcu_tools.spec params NAME: a named configuration's parameters
for a script (tcu_tools.spec.main)."""
import sys

from tcu_tools.spec import main

sys.exit(main(sys.argv[1:]))
