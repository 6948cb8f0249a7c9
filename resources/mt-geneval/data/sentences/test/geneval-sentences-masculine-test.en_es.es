Él trabajó como enfermero en Lyon durante diez años.
El actor agradeció a sus profesores.
Él se convirtió en el primer director del museo en 1921.
De niño, él quería ser piloto.
"Es un escritor muy cuidadoso", dijo el editor.
El rey y su hermano eran ambos músicos.
