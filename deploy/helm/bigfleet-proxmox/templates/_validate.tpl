{{/*
Values the chart refuses, each with one line naming what is wrong: settings that would render but
run a broken provider (two pods on one SQLite file, replicas with nothing to share).
*/}}
{{- define "bigfleet-proxmox.validate" -}}
{{- $replicas := int .Values.replicaCount }}
{{- $state := .Values.flags.state | default "" | toString }}
{{- if and (gt $replicas 1) .Values.state.enabled }}
{{- fail (printf "replicaCount %d needs state.enabled: false: SQLite state cannot be shared and a ReadWriteOnce volume cannot be mounted twice; put the state in PostgreSQL (flags.state: postgresql://...)" $replicas) }}
{{- end }}
{{- if and (gt $replicas 1) (not (hasPrefix "postgresql://" $state)) }}
{{- fail (printf "replicaCount %d needs flags.state set to a postgresql:// URL: the replicas share their state and leader lease in one PostgreSQL database" $replicas) }}
{{- end }}
{{- if and .Values.state.enabled (hasKey .Values.flags "state") (not (kindIs "invalid" .Values.flags.state)) }}
{{- fail "flags.state and state.enabled: true both set --state: set state.enabled: false to use flags.state" }}
{{- end }}
{{- if not (has .Values.strategy.type (list "Recreate" "RollingUpdate")) }}
{{- fail (printf "strategy.type %s is neither Recreate nor RollingUpdate" (toString .Values.strategy.type)) }}
{{- end }}
{{- if and (eq .Values.strategy.type "RollingUpdate") .Values.state.enabled }}
{{- fail "strategy.type RollingUpdate needs state.enabled: false: the new pod would mount the state volume while the old one still runs on it" }}
{{- end }}
{{- if and .Values.http.tls.clientCA (not .Values.http.tls.secretName) }}
{{- fail "http.tls.clientCA needs http.tls.secretName: the client CA comes from that Secret's ca.crt" }}
{{- end }}
{{- range .Values.extraSecretMounts }}
{{- if not (and .secretName .mountPath) }}
{{- fail (printf "extraSecretMounts: each entry needs secretName and mountPath, got %s" (toJson .)) }}
{{- end }}
{{- end }}
{{- end }}
