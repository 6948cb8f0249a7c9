<M>Él</M> trabajó como <M>enfermero</M> en Lyon durante diez años.
<M>El actor</M> agradeció a sus profesores.
<M>Él</M> se convirtió en <M>el primer director</M> del museo en 1921.
De <M>niño</M>, <M>él</M> quería ser piloto.
"<M>Es un escritor</M> muy <M>cuidadoso</M>", dijo el editor.
<M>El rey</M> y su hermano eran ambos músicos.
