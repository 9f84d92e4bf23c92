{{/* ---------------------------------------------------------------------------------------
Names and labels
--------------------------------------------------------------------------------------- */}}

{{- define "parley.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "parley.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "parley.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Name of a component's objects. Args: dict root, name */}}
{{- define "parley.componentName" -}}
{{- printf "%s-%s" (include "parley.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels of a component. Args: dict root, name */}}
{{- define "parley.selectorLabels" -}}
app.kubernetes.io/name: {{ include "parley.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Common labels. Args: dict root, name (name may be empty for chart-wide objects) */}}
{{- define "parley.labels" -}}
helm.sh/chart: {{ include "parley.chart" .root }}
app.kubernetes.io/name: {{ include "parley.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- if .name }}
app.kubernetes.io/component: {{ .name }}
{{- end }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: parley
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- end -}}

{{/* Image of a component. Args: dict root, name, svc */}}
{{- define "parley.image" -}}
{{- $g := .root.Values.global.image -}}
{{- $repo := .svc.image.repository | default (printf "parley/%s" .name) -}}
{{- $tag := .svc.image.tag | default $g.tag | default .root.Chart.AppVersion -}}
{{- if $g.registry -}}
{{- printf "%s/%s:%s" (trimSuffix "/" $g.registry) $repo $tag -}}
{{- else -}}
{{- printf "%s:%s" $repo $tag -}}
{{- end -}}
{{- end -}}

{{/* ---------------------------------------------------------------------------------------
Secrets
--------------------------------------------------------------------------------------- */}}

{{/* Name of the Secret holding the platform secrets (INTERNAL_AUTH_SECRET, and
     SETTINGS_ENCRYPTION_KEY / EMAIL_SIGNING_SECRET when a service reads them) at run time. */}}
{{- define "parley.internalSecretName" -}}
{{- .Values.global.existingSecret | default (include "parley.fullname" .) -}}
{{- end -}}

{{/* Platform secret keys the chart manages, as a JSON list: INTERNAL_AUTH_SECRET always, the
     others when an enabled service lists them in platformSecrets. */}}
{{- define "parley.platformSecretKeys" -}}
{{- $keys := list "INTERNAL_AUTH_SECRET" -}}
{{- range $name, $svc := .Values.services -}}
{{- if and $svc.enabled (ne $name "gateway") -}}
{{- range ($svc.platformSecrets | default list) -}}
{{- $keys = append $keys . -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $keys | uniq | sortAlpha | toJson -}}
{{- end -}}

{{/* Values of the platform secrets when the chart manages them (a dict key -> value): the
     given value (global.internalAuthSecret, settingsEncryptionKey, emailSigningSecret), else the
     one already installed (kept on upgrades), else a new random one: 48 letters and digits, or
     32 random bytes in base64 (44 characters) for the encryption key. Computed once per render,
     so the release Secret and every hook Secret agree. */}}
{{- define "parley.platformSecretValues" -}}
{{- if not (hasKey .Values "_parleyGenerated") -}}
{{- $g := .Values.global -}}
{{- $old := dict -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "parley.fullname" .) -}}
{{- if and $existing $existing.data -}}
{{- $old = $existing.data -}}
{{- end -}}
{{- $given := dict "INTERNAL_AUTH_SECRET" ($g.internalAuthSecret | default "") "SETTINGS_ENCRYPTION_KEY" ($g.settingsEncryptionKey | default "") "EMAIL_SIGNING_SECRET" ($g.emailSigningSecret | default "") -}}
{{- $out := dict -}}
{{- range $key, $value := $given -}}
{{- if not $value -}}
{{- if hasKey $old $key -}}
{{- $value = index $old $key | b64dec -}}
{{- else if eq $key "SETTINGS_ENCRYPTION_KEY" -}}
{{- $value = randBytes 32 -}}
{{- else -}}
{{- $value = randAlphaNum 48 -}}
{{- end -}}
{{- end -}}
{{- $_ := set $out $key $value -}}
{{- end -}}
{{- $_ := set .Values "_parleyGenerated" $out -}}
{{- end -}}
{{- .Values._parleyGenerated | toJson -}}
{{- end -}}

{{/* The platform secrets the chart manages, as Secret `data` lines (base64). */}}
{{- define "parley.platformSecretData" -}}
{{- $values := include "parley.platformSecretValues" . | fromJson -}}
{{- range (include "parley.platformSecretKeys" . | fromJsonArray) }}
{{ . }}: {{ index $values . | b64enc | quote }}
{{- end }}
{{- end -}}

{{/* The public origin (PUBLIC_ORIGIN of every process): global.publicOrigin, else the first
     ingress host (https with ingress.tls), else the port-forward of NOTES.txt. */}}
{{- define "parley.publicOrigin" -}}
{{- $ing := .Values.ingress -}}
{{- if .Values.global.publicOrigin -}}
{{- .Values.global.publicOrigin | trimSuffix "/" -}}
{{- else if and $ing.enabled $ing.hosts -}}
{{- printf "%s://%s" (ternary "https" "http" (not (empty $ing.tls))) (index $ing.hosts 0).host -}}
{{- else -}}
http://localhost:3000
{{- end -}}
{{- end -}}

{{/* Where DATABASE_PASSWORD comes from, as YAML {name, key}, or nothing (no password).
     Args: dict root, fallback (Secret name holding a chart-managed password). */}}
{{- define "parley.dbPasswordRef" -}}
{{- $pg := .root.Values.global.postgresql -}}
{{- if $pg.existingSecret -}}
name: {{ $pg.existingSecret }}
key: {{ $pg.existingSecretPasswordKey }}
{{- else if .root.Values.postgresql.enabled -}}
name: {{ printf "%s-postgresql" .root.Release.Name }}
key: password
{{- else if $pg.password -}}
name: {{ .fallback }}
key: DATABASE_PASSWORD
{{- end -}}
{{- end -}}

{{/* Whether the chart manages DATABASE_PASSWORD in its own Secret ("true" or ""). */}}
{{- define "parley.chartDbPassword" -}}
{{- $pg := .Values.global.postgresql -}}
{{- if and (not .Values.postgresql.enabled) (not $pg.existingSecret) $pg.password -}}true{{- end -}}
{{- end -}}

{{/* NATS servers: the bundled NATS when enabled, else global.nats.url. */}}
{{- define "parley.natsUrl" -}}
{{- if .Values.nats.enabled -}}
{{- printf "nats://%s-nats:4222" .Release.Name -}}
{{- else -}}
{{- .Values.global.nats.url -}}
{{- end -}}
{{- end -}}

{{/* Whether a service's migrations run as a hook Job ("true"/"false"): its
     migrations.enabled, and not with the bundled PostgreSQL (which does not exist yet while
     pre-install hooks run; services then migrate on start). Args: dict root, name, svc */}}
{{- define "parley.migrationJob" -}}
{{- and (ne .name "gateway") (dig "migrations" "enabled" false .svc) (not .root.Values.postgresql.enabled) | toString -}}
{{- end -}}

{{/* Non-empty secretEnv of a service, as YAML (empty output = none). Args: svc */}}
{{- define "parley.secretEnvData" -}}
{{- range $k, $v := .svc.secretEnv }}
{{- if ne (toString $v) "" }}
{{ $k }}: {{ toString $v | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* ---------------------------------------------------------------------------------------
Environment
--------------------------------------------------------------------------------------- */}}

{{/* Non-secret environment of a component as a YAML map (ConfigMap data; inline in Jobs).
     Args: dict root, name, svc */}}
{{/* The port a component's /metrics is scraped on: the gateway's own metrics port, else the
     API port. Args: dict root, name, svc */}}
{{- define "parley.metricsPort" -}}
{{- if eq .name "gateway" -}}
{{ .svc.metricsPort | default 9464 }}
{{- else -}}
{{ .svc.port }}
{{- end -}}
{{- end -}}

{{- define "parley.configEnv" -}}
{{- $root := .root -}}
{{- $g := $root.Values.global -}}
NODE_ENV: "production"
HOST: "0.0.0.0"
PORT: {{ .svc.port | toString | quote }}
LOG_LEVEL: {{ $g.logLevel | quote }}
PUBLIC_ORIGIN: {{ include "parley.publicOrigin" $root | quote }}
{{- if $g.otel.endpoint }}
OTEL_EXPORTER_OTLP_ENDPOINT: {{ $g.otel.endpoint | quote }}
{{- end }}
{{- if eq .name "gateway" }}
WEB_DIST_DIR: "/app/web/dist"
METRICS_PORT: {{ include "parley.metricsPort" . | quote }}
{{- range $name, $svc := $root.Values.services }}
{{- if and (ne $name "gateway") $svc.enabled }}
{{ printf "%s_URL" (upper $name) }}: {{ printf "http://%s:%v" (include "parley.componentName" (dict "root" $root "name" $name)) 80 | quote }}
{{- end }}
{{- end }}
{{- else }}
NATS_URL: {{ include "parley.natsUrl" $root | quote }}
MIGRATE_ON_START: {{ ternary "false" "true" (eq (include "parley.migrationJob" .) "true") | quote }}
DATABASE_POOL_MAX: {{ $g.postgresql.poolMax | toString | quote }}
{{- end }}
{{- range $k, $v := .svc.env }}
{{- if ne (toString $v) "" }}
{{ $k }}: {{ toString $v | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Secret-backed env entries (a YAML list). Args: dict root, name, svc, internalSecret,
     dbFallbackSecret, platformSecret (omitted in hook Jobs: migrations need only the
     database) */}}
{{- define "parley.secretEnvList" -}}
{{- $root := .root -}}
{{- $pg := $root.Values.global.postgresql -}}
- name: INTERNAL_AUTH_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ .internalSecret }}
      key: INTERNAL_AUTH_SECRET
{{- if ne .name "gateway" }}
{{- if .platformSecret }}
{{- range (.svc.platformSecrets | default list) }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ $.platformSecret }}
      key: {{ . }}
{{- end }}
{{- end }}
{{- $db := .svc.database | default dict }}
{{- $user := $db.user | default $pg.user }}
{{- $dbName := $db.name | default (printf "parley_%s" .name) }}
{{- $host := $pg.host }}
{{- if $root.Values.postgresql.enabled }}
{{- $host = printf "%s-postgresql" $root.Release.Name }}
{{- end }}
{{- $params := "" }}
{{- if $pg.params }}{{ $params = printf "?%s" $pg.params }}{{ end }}
{{- $pw := include "parley.dbPasswordRef" (dict "root" $root "fallback" .dbFallbackSecret) | fromYaml }}
- name: DATABASE_USER
  value: {{ $user | quote }}
{{- if $pw.name }}
- name: DATABASE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $pw.name }}
      key: {{ $pw.key }}
- name: DATABASE_URL
  value: {{ printf "postgresql://$(DATABASE_USER):$(DATABASE_PASSWORD)@%s:%v/%s%s" $host $pg.port $dbName $params | quote }}
{{- else }}
- name: DATABASE_URL
  value: {{ printf "postgresql://$(DATABASE_USER)@%s:%v/%s%s" $host $pg.port $dbName $params | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* ---------------------------------------------------------------------------------------
Pod pieces shared by Deployments and Jobs
--------------------------------------------------------------------------------------- */}}

{{- define "parley.podSecurity" -}}
automountServiceAccountToken: false
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.global.image.pullSecrets }}
imagePullSecrets:
  {{- range . }}
  - name: {{ . }}
  {{- end }}
{{- end }}
{{- end -}}

{{/* The /tmp emptyDir: dict "root" (the chart) and "svc" (a component's values, may be empty). */}}
{{- define "parley.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .svc.tmpSizeLimit | default .root.Values.tmpSizeLimit }}
{{- end -}}

{{- define "parley.tmpMount" -}}
- name: tmp
  mountPath: /tmp
{{- end -}}
