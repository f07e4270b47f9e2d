# Runs Debian's cloud-init NoCloud datasource on the seed directory <cloud_dir>/seed/nocloud (where
# a test extracted the image) as cloud-init's init stage would, and prints what it read as JSON.
# The user-data is printed as base64, so the test compares it byte for byte.
import base64
import json
import sys

from cloudinit import helpers
from cloudinit.sources import DataSourceNoCloud

cloud_dir = sys.argv[1]
paths = helpers.Paths({"cloud_dir": cloud_dir, "run_dir": cloud_dir + "/run"})
# fs_label None: look only at the seed directory, not at this machine's block devices
config = {"datasource": {"NoCloud": {"fs_label": None}}}
source = DataSourceNoCloud.DataSourceNoCloud(config, None, paths)
found = source.get_data()
print(
    json.dumps(
        {
            "found": found,
            "dsname": source.dsname,
            "seed": source.seed,
            "metadata": source.metadata,
            "instance_id": source.get_instance_id() if found else None,
            "userdata": base64.b64encode(source.get_userdata_raw() or b"").decode("ascii"),
            "network_config": source.network_config if found else None,
        }
    )
)
