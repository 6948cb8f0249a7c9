<F>Ella</F> trabajó como <F>enfermera</F> en Lyon durante diez años.
<F>La actriz</F> agradeció a sus profesores.
<F>Ella</F> se convirtió en <F>la primera directora</F> del museo en 1921.
De <F>niña</F>, <F>ella</F> quería ser piloto.
"<F>Es una escritora</F> muy <F>cuidadosa</F>", dijo el editor.
<F>La reina</F> y su hermano eran ambos músicos.
