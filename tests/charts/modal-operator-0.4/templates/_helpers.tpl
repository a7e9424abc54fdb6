{{- define "modal.fullname" -}}
{{ .Release.Name }}-modal-operator
{{- end }}
{{- define "modal.target" -}}
{{ .Values.namespaceRestriction.targetNamespace | default .Release.Namespace }}
{{- end }}
