Más tarde, la cirujana abrió una clínica en Nantes.
El violinista hizo una gira por Europa durante una década.
La autora escribió doce novelas.
El economista asesoró más tarde al gobierno.
La maestra se jubiló en 2001.
La pintora expuso en Madrid y en Roma.
