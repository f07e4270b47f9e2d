#!/usr/bin/env bash
# Creates what the provider needs on a Proxmox VE cluster: a role with exactly the privileges
# docs/proxmox/storage.md lists, a user, an API token whose secret goes to a file (mode 0600), and the ACLs that
# grant the role to user and token on the pool, the storages, the bridges, the nodes and (when
# the templates are not in the pool) the templates. Run it as root on one node of the cluster.
# Running it again changes nothing that is already right, and resets the role's privileges.
#
#   deploy/proxmox/setup-token.sh --storage local-lvm --bridge vmbr0 --template 9000
#   deploy/proxmox/setup-token.sh --dry-run ...     # print the pveum commands, change nothing
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: setup-token.sh [options]
  --user USER@REALM     the provider's user (default bigfleet@pve)
  --token NAME          its API token (default autoscaler)
  --role NAME           the role (default BigFleetProvider)
  --pool NAME           the resource pool clones join, created when missing (default bigfleet)
  --storage IDS         storages clones are created on, comma separated (required)
  --bridge NAMES        bridges the VMs' NICs use, comma separated (required)
  --sdn-zone NAME       the SDN zone of those bridges (default localnetwork: plain Linux bridges)
  --template VMIDS      templates to clone that are not in the pool, comma separated
  --pci-mapping IDS     PCI resource mappings GPU instance types pass through, comma separated
                        (Mapping.Use on each, through the built-in PVEMappingUser role)
  --seed-storage IDS    storages the seeds of "bootstrap": "nocloud" types are uploaded to, comma
                        separated (upload, list and delete there through the role <role>Seeds, and
                        VM.Config.CDROM in the role)
  --secret-file PATH    where the token secret is written, mode 0600 (default ./bigfleet-token.secret)
  --pve-version 8|9     privilege names of that version (default: the installed pve-manager's)
  --dry-run             print the pveum commands instead of running them
  -h, --help            this text
USAGE
}

user=bigfleet@pve
token=autoscaler
role=BigFleetProvider
pool=bigfleet
storages=
bridges=
sdn_zone=localnetwork
templates=
pci_mappings=
seed_storages=
secret_file=./bigfleet-token.secret
pve_version=
dry_run=false

die() {
  echo "setup-token: $*" >&2
  exit 1
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --user) user="${2:?--user needs a value}"; shift 2 ;;
    --token) token="${2:?--token needs a value}"; shift 2 ;;
    --role) role="${2:?--role needs a value}"; shift 2 ;;
    --pool) pool="${2:?--pool needs a value}"; shift 2 ;;
    --storage) storages="${2:?--storage needs a value}"; shift 2 ;;
    --bridge) bridges="${2:?--bridge needs a value}"; shift 2 ;;
    --sdn-zone) sdn_zone="${2:?--sdn-zone needs a value}"; shift 2 ;;
    --template) templates="${2:?--template needs a value}"; shift 2 ;;
    --pci-mapping) pci_mappings="${2:?--pci-mapping needs a value}"; shift 2 ;;
    --seed-storage) seed_storages="${2:?--seed-storage needs a value}"; shift 2 ;;
    --secret-file) secret_file="${2:?--secret-file needs a value}"; shift 2 ;;
    --pve-version) pve_version="${2:?--pve-version needs a value}"; shift 2 ;;
    --dry-run) dry_run=true; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
  esac
done

[[ "$user" == *@* && "$user" != *'!'* ]] || die "--user: \"$user\" is not USER@REALM"
[[ "$token" =~ ^[A-Za-z][A-Za-z0-9._-]*$ ]] || die "--token: \"$token\" is not a token name (letters, digits, . _ -)"
[[ -n "$storages" ]] || die "--storage is required (the storages clones are created on)"
[[ -n "$bridges" ]] || die "--bridge is required (the bridges the VMs' NICs use)"

if [[ -z "$pve_version" ]]; then
  command -v pveversion >/dev/null 2>&1 || die "pveversion not found: run on a Proxmox VE node, or give --pve-version 8|9"
  # "pve-manager/9.0.3/... (running kernel: ...)"
  pve_version="$(pveversion | sed -n 's|^pve-manager/\([0-9]*\)\..*|\1|p')"
fi

# The privileges docs/proxmox/storage.md lists; PVE 9 split VM.Monitor into the VM.GuestAgent.* privileges.
case "$pve_version" in
  8) guest_agent=(VM.Monitor) ;;
  9) guest_agent=(VM.GuestAgent.Audit VM.GuestAgent.FileWrite VM.GuestAgent.Unrestricted) ;;
  *) die "--pve-version: \"$pve_version\" is not 8 or 9" ;;
esac
privileges=(VM.Audit VM.Clone VM.Allocate VM.Config.CPU VM.Config.Memory VM.Config.Options VM.Config.Disk
  VM.Config.Network VM.PowerMgmt
  "${guest_agent[@]}" Datastore.AllocateSpace SDN.Use Sys.Audit Pool.Audit)
# a nocloud type's seed goes in and out of a CD-ROM drive of the clone
[[ -z "$seed_storages" ]] || privileges+=(VM.Config.CDROM)
privs="$(IFS=,; echo "${privileges[*]}")"
token_id="$user!$token"
# and is uploaded, listed and deleted on its storage: a role of its own, granted there alone
seed_role="${role}Seeds"
seed_privs=Datastore.AllocateTemplate,Datastore.Audit,Datastore.Allocate

# Every path the role is granted on, with user and token both: a privilege-separated token holds
# what both its own ACLs and its user's grant.
paths=("/pool/$pool" /nodes)
IFS=, read -r -a list <<<"$storages"
for s in "${list[@]}"; do paths+=("/storage/$s"); done
IFS=, read -r -a list <<<"$bridges"
for b in "${list[@]}"; do paths+=("/sdn/zones/$sdn_zone/$b"); done
if [[ -n "$templates" ]]; then
  IFS=, read -r -a list <<<"$templates"
  for t in "${list[@]}"; do
    [[ "$t" =~ ^[1-9][0-9]*$ ]] || die "--template: \"$t\" is not a VMID"
    paths+=("/vms/$t")
  done
fi

mappings=()
if [[ -n "$pci_mappings" ]]; then
  IFS=, read -r -a list <<<"$pci_mappings"
  for m in "${list[@]}"; do
    [[ "$m" =~ ^[A-Za-z][A-Za-z0-9_-]*$ ]] || die "--pci-mapping: \"$m\" is not a mapping id"
    mappings+=("/mapping/pci/$m")
  done
fi

seeds=()
if [[ -n "$seed_storages" ]]; then
  IFS=, read -r -a list <<<"$seed_storages"
  for s in "${list[@]}"; do
    [[ "$s" =~ ^[a-z][a-z0-9_.-]*[a-z0-9]$ ]] || die "--seed-storage: \"$s\" is not a storage id"
    seeds+=("/storage/$s")
  done
fi

if $dry_run; then
  # each command as it would be typed: words with shell syntax in them single-quoted
  show() {
    local words=() w
    for w in "$@"; do
      if [[ "$w" =~ ^[A-Za-z0-9._/@,:=+-]+$ ]]; then words+=("$w"); else words+=("'${w//\'/\'\\\'\'}'"); fi
    done
    echo "${words[*]}"
  }
  show pveum pool add "$pool"
  show pveum role add "$role" --privs "$privs"
  show pveum user add "$user"
  show pveum user token add "$user" "$token" --privsep 1 --output-format json
  for path in "${paths[@]}"; do
    show pveum acl modify "$path" --roles "$role" --users "$user" --tokens "$token_id" --propagate 1
  done
  show pveum acl modify / --roles PVEAuditor --users "$user" --tokens "$token_id" --propagate 0
  for path in "${mappings[@]}"; do
    show pveum acl modify "$path" --roles PVEMappingUser --users "$user" --tokens "$token_id" --propagate 0
  done
  if [[ ${#seeds[@]} -gt 0 ]]; then
    show pveum role add "$seed_role" --privs "$seed_privs"
  fi
  for path in "${seeds[@]}"; do
    show pveum acl modify "$path" --roles "$seed_role" --users "$user" --tokens "$token_id" --propagate 0
  done
  exit 0
fi

command -v pveum >/dev/null 2>&1 || die "pveum not found: run this on a Proxmox VE node"

# Runs an "add"; one that says the object already exists counts as done.
add() {
  local err
  if ! err="$(pveum "$@" 2>&1 >/dev/null)"; then
    if [[ "$err" == *"already exists"* ]]; then
      return 1
    fi
    die "pveum $1 $2 failed: $err"
  fi
}

add pool add "$pool" || echo "pool $pool exists"
if add role add "$role" --privs "$privs"; then
  echo "created role $role"
else
  pveum role modify "$role" --privs "$privs" >/dev/null || die "pveum role modify $role failed"
  echo "role $role exists; its privileges are set to $privs"
fi
add user add "$user" && echo "created user $user" || echo "user $user exists"

if [[ -s "$secret_file" ]] && pveum user token list "$user" --output-format json | grep -Eq "\"tokenid\" *: *\"$token\""; then
  echo "token $token_id exists and its secret is in $secret_file"
else
  umask 077
  answer="$(pveum user token add "$user" "$token" --privsep 1 --output-format json 2>&1)" || {
    [[ "$answer" == *"already exists"* ]] \
      && die "token $token_id exists but its secret is not in $secret_file; remove it (pveum user token remove $user $token) and run again"
    die "pveum user token add failed: $answer"
  }
  secret="$(printf '%s' "$answer" | sed -n 's/.*"value":"\([^"]*\)".*/\1/p')"
  [[ -n "$secret" ]] || die "pveum user token add answered no secret"
  install -m 0600 /dev/null "$secret_file"
  printf '%s\n' "$secret" >"$secret_file"
  echo "created token $token_id; its secret is in $secret_file (mode 0600)"
fi

for path in "${paths[@]}"; do
  pveum acl modify "$path" --roles "$role" --users "$user" --tokens "$token_id" --propagate 1 >/dev/null \
    || die "pveum acl modify $path failed"
  echo "granted $role on $path"
done
# Sys.Audit on / itself (not below it): the HA manager's status, where nodes in maintenance mode and
# a lost quorum show; read-only.
pveum acl modify / --roles PVEAuditor --users "$user" --tokens "$token_id" --propagate 0 >/dev/null \
  || die "pveum acl modify / failed"
echo "granted PVEAuditor on / (not below it)"
for path in "${mappings[@]}"; do
  pveum acl modify "$path" --roles PVEMappingUser --users "$user" --tokens "$token_id" --propagate 0 >/dev/null \
    || die "pveum acl modify $path failed"
  echo "granted PVEMappingUser on $path"
done
if [[ ${#seeds[@]} -gt 0 ]]; then
  if add role add "$seed_role" --privs "$seed_privs"; then
    echo "created role $seed_role"
  else
    pveum role modify "$seed_role" --privs "$seed_privs" >/dev/null || die "pveum role modify $seed_role failed"
    echo "role $seed_role exists; its privileges are set to $seed_privs"
  fi
fi
for path in "${seeds[@]}"; do
  pveum acl modify "$path" --roles "$seed_role" --users "$user" --tokens "$token_id" --propagate 0 >/dev/null \
    || die "pveum acl modify $path failed"
  echo "granted $seed_role on $path"
done

cat <<DONE

Start the provider with:
  --proxmox-token-id '$token_id' --proxmox-token-file $secret_file --proxmox-pool $pool
DONE
