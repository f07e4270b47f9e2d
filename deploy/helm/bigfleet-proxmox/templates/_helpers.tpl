{{/* Names and labels. */}}
{{- define "bigfleet-proxmox.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "bigfleet-proxmox.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "bigfleet-proxmox.selectorLabels" -}}
app.kubernetes.io/name: {{ include "bigfleet-proxmox.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "bigfleet-proxmox.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "bigfleet-proxmox.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "bigfleet-proxmox.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "bigfleet-proxmox.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Where things are mounted in the container. */}}
{{- define "bigfleet-proxmox.configDir" -}}/etc/bigfleet-proxmox/config{{- end }}
{{- define "bigfleet-proxmox.secretsDir" -}}/etc/bigfleet-proxmox/secrets{{- end }}
{{- define "bigfleet-proxmox.tlsDir" -}}/etc/bigfleet-proxmox/tls{{- end }}
{{- define "bigfleet-proxmox.httpTlsDir" -}}/etc/bigfleet-proxmox/http-tls{{- end }}
{{- define "bigfleet-proxmox.stateDir" -}}/var/lib/bigfleet-proxmox{{- end }}

{{/*
Files from Secrets: a list of {volume, secretName, key, path, option|flag}, one per mounted file.
The token and CA of the proxmox section, then backendSecretFiles, then secretFileFlags.
*/}}
{{- define "bigfleet-proxmox.secretFiles" -}}
{{- $dir := include "bigfleet-proxmox.secretsDir" . }}
{{- $files := list }}
{{- if eq .Values.backend "proxmox" }}
{{- with .Values.proxmox.tokenSecret }}{{ if .secretName }}
{{- $files = append $files (dict "volume" "proxmox-token" "secretName" .secretName "key" .key "path" (printf "%s/proxmox-token/%s" $dir .key) "option" "token-file") }}
{{- end }}{{ end }}
{{- with .Values.proxmox.caBundle }}{{ if .secretName }}
{{- $files = append $files (dict "volume" "proxmox-ca" "secretName" .secretName "key" .key "path" (printf "%s/proxmox-ca/%s" $dir .key) "option" "ca-file") }}
{{- end }}{{ end }}
{{- end }}
{{- range $option, $from := .Values.backendSecretFiles }}
{{- $volume := printf "option-%s" $option | trunc 63 | trimSuffix "-" }}
{{- $files = append $files (dict "volume" $volume "secretName" $from.secretName "key" $from.key "path" (printf "%s/%s/%s" $dir $volume $from.key) "option" $option) }}
{{- end }}
{{- range $flag, $from := .Values.secretFileFlags }}
{{- $volume := printf "flag-%s" $flag | trunc 63 | trimSuffix "-" }}
{{- $files = append $files (dict "volume" $volume "secretName" $from.secretName "key" $from.key "path" (printf "%s/%s/%s" $dir $volume $from.key) "flag" $flag) }}
{{- end }}
{{- toJson $files }}
{{- end }}

{{/* The --backend-config object: the proxmox section, backendOptions, and files from Secrets. */}}
{{- define "bigfleet-proxmox.backendConfig" -}}
{{- $options := dict }}
{{- if eq .Values.backend "proxmox" }}
{{- with .Values.proxmox.apiUrl }}{{ $_ := set $options "api-url" . }}{{ end }}
{{- with .Values.proxmox.tokenId }}{{ $_ := set $options "token-id" . }}{{ end }}
{{- with .Values.proxmox.tlsFingerprint }}{{ $_ := set $options "tls-fingerprint" . }}{{ end }}
{{- with .Values.proxmox.pool }}{{ $_ := set $options "pool" . }}{{ end }}
{{- end }}
{{- range $key, $value := .Values.backendOptions }}
{{- if not (kindIs "invalid" $value) }}{{ $_ := set $options $key $value }}{{ end }}
{{- end }}
{{- range (include "bigfleet-proxmox.secretFiles" . | fromJsonArray) }}
{{- if .option }}{{ $_ := set $options .option .path }}{{ end }}
{{- end }}
{{- toJson $options }}
{{- end }}

{{/* The scheme of the HTTP port: HTTPS with http.tls. */}}
{{- define "bigfleet-proxmox.httpScheme" -}}
{{- if .Values.http.tls.secretName }}HTTPS{{ else }}HTTP{{ end }}
{{- end }}

{{/* A flag's value as text: YAML numbers reach templates as floats, and 100000 must not become 1e+05. */}}
{{- define "bigfleet-proxmox.flagValue" -}}
{{- if and (kindIs "float64" .) (eq . (float64 (int64 .))) }}{{ int64 . }}{{ else }}{{ . }}{{ end }}
{{- end }}

{{/* The provider's arguments, one flag each. */}}
{{- define "bigfleet-proxmox.args" -}}
- --addr=:{{ .Values.grpc.port }}
- --metrics-addr=:{{ .Values.http.port }}
- {{ printf "--proxmox-backend=%s" .Values.backend | quote }}
- {{ printf "--provider=%s" .Values.providerLabel | quote }}
- {{ printf "--log-format=%s" .Values.logFormat | quote }}
{{- with .Values.nodes }}
- {{ printf "--nodes=%s" (join "," .) | quote }}
{{- end }}
{{- if .Values.state.enabled }}
- --state={{ include "bigfleet-proxmox.stateDir" . }}/state.db
{{- end }}
{{- if .Values.offerings }}
- --offerings={{ include "bigfleet-proxmox.configDir" . }}/offerings.json
{{- end }}
{{- if .Values.instanceTypes }}
- --instance-types={{ include "bigfleet-proxmox.configDir" . }}/instance-types.json
{{- end }}
{{- if ne (include "bigfleet-proxmox.backendConfig" .) "{}" }}
- --backend-config={{ include "bigfleet-proxmox.configDir" . }}/backend-config.json
{{- end }}
{{- if .Values.grpc.tls.secretName }}
- --tls-cert={{ include "bigfleet-proxmox.tlsDir" . }}/tls.crt
- --tls-key={{ include "bigfleet-proxmox.tlsDir" . }}/tls.key
{{- if .Values.grpc.tls.clientCA }}
- --tls-ca={{ include "bigfleet-proxmox.tlsDir" . }}/ca.crt
{{- end }}
{{- end }}
{{- if .Values.http.tls.secretName }}
- --metrics-tls-cert={{ include "bigfleet-proxmox.httpTlsDir" . }}/tls.crt
- --metrics-tls-key={{ include "bigfleet-proxmox.httpTlsDir" . }}/tls.key
{{- if .Values.http.tls.clientCA }}
- --metrics-tls-ca={{ include "bigfleet-proxmox.httpTlsDir" . }}/ca.crt
{{- end }}
{{- end }}
{{- range (include "bigfleet-proxmox.secretFiles" . | fromJsonArray) }}
{{- if .flag }}
- {{ printf "--%s=%s" .flag .path | quote }}
{{- end }}
{{- end }}
{{- range $name, $value := .Values.flags }}
{{- if kindIs "slice" $value }}
{{- range $value }}
- {{ printf "--%s=%s" $name (include "bigfleet-proxmox.flagValue" .) | quote }}
{{- end }}
{{- else if not (kindIs "invalid" $value) }}
- {{ printf "--%s=%s" $name (include "bigfleet-proxmox.flagValue" $value) | quote }}
{{- end }}
{{- end }}
{{- end }}
