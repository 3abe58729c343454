# Example program carrying hostile text in comments and labels
# <script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) {{ 7*7 }} {% raw %}
BSTART.VEC TADD, S32  # <script>alert(1)</script>
B.DIM LB0=4
B.IOT T1, T2, mask=0b0001, <last>, ->T<1>
BSTOP  # {{ 7*7 }}
