# Loads each meta-data file named on the command line as cloud-init's NoCloud datasource does
# (cloudinit.util.load_yaml, PyYAML's safe loader) and prints the mappings as one JSON list; a file
# that is not a YAML mapping prints as null.
import json
import sys

from cloudinit import util

print(json.dumps([util.load_yaml(open(name, "rb").read()) for name in sys.argv[1:]]))
