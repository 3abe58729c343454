// PTO-UNIT: {"id":"PTO-TILE-MODEL-HOSTILE","surface":"tile","classification":["model"],"depends_on":[]}
// Summary: <script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) {{ 7*7 }} {% raw %}

// NDF-BEGIN: PTO-HOSTILE-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// A result MUST be shown as text, even <script>alert(1)</script>.
// A result MUST be shown as text, even <img src=x onerror=alert(1)>.
// A result MUST be shown as text, even [x](javascript:alert(1)).
// A result MUST be shown as text, even {{ 7*7 }}.
// A result MUST be shown as text, even {% raw %}.
// NDF-END: PTO-HOSTILE-001

// DOC-BEGIN: notes
// <script>alert(1)</script>
// <img src=x onerror=alert(1)>
// [x](javascript:alert(1))
// {{ 7*7 }}
// {% raw %}
// <a href="javascript:alert(1)">click</a> {#
// DOC-END: notes

// <script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) {{ 7*7 }} {% raw %}
func Hostile() => integer
begin
    return 49; // {{ 7*7 }}
end;
