"""The explorer as one self-contained HTML page: inline CSS and JavaScript, no server, no CDN.

The data (:mod:`.explorer`) is embedded once, gzipped; the page decompresses it with the
browser's own DecompressionStream and renders one page of items at a time, so that a large
benchmark (WinoMT's 3,888 sentences in eight languages) opens as fast as a small one. The
filters' state is kept in the address's fragment (``#run=fr&q=developer``): a view can be
linked, and a headless browser can open one.
"""

from __future__ import annotations

import html
import importlib
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gendermt.data.io import write_text
from gendermt.report.explorer import DATA_ID, FORMAT, Explorer, encode, pack

log = logging.getLogger(__name__)

CSS = """
body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#222}
header{padding:8px 12px;background:#f4f6fa;border-bottom:1px solid #d8dde6}
h1{font-size:16px;margin:0 0 4px}
.reading{color:#444;margin:0 0 6px;max-width:70em}
.filters{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center}
.filters label{white-space:nowrap}
.filters select,.filters input{font:inherit}
.systems label{margin-right:8px}
.status{margin:6px 0 0;color:#333}
.status b{font-variant-numeric:tabular-nums}
.pager button{font:inherit;margin:0 2px}
table{border-collapse:collapse;margin:8px 12px;table-layout:fixed}
th,td{border:1px solid #d6d6d6;padding:4px 6px;vertical-align:top;text-align:left;
overflow-wrap:anywhere}
thead th{background:#eef1f6;position:sticky;top:0}
td.item{width:24em}
td.sys,th.sys{width:17em}
.id{color:#666;font-size:11px}
.src{font-weight:500}
.ref{color:#1d5e2b}
.extra{color:#555}
.tag{display:inline-block;background:#eef1f6;border-radius:3px;padding:0 4px;margin:2px 3px 0 0;
font-size:11px}
.read{display:inline-block;border-radius:3px;padding:0 5px;margin-top:3px;font-size:12px}
.v1{background:#d7f0dc;color:#14521f}.v0{background:#f8d7d5;color:#7a1b14}
.v-{background:#e9e9e9;color:#333}
.ev{color:#666;font-size:11px;margin-top:2px}
.none{color:#999}
.summary span{margin-right:12px}
#gmt-error{color:#a00;padding:12px}
""".replace("\n", "")

# The page's program: load the data, build the filters, render a page of rows.
JS = r"""
(function(){
"use strict";
var DATA_ID="%(data_id)s",FORMAT=%(format)d,PAGE=50;
var D,S,N,state,low=null;
function esc(t){return String(t).replace(/[&<>"]/g,function(c){return {"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c];});}
function str(i){return i<0?null:S[i];}
function el(id){return document.getElementById(id);}
async function load(){
  var b64=el(DATA_ID).textContent.trim(),bytes;
  try{bytes=await (await fetch("data:application/octet-stream;base64,"+b64)).arrayBuffer();}
  catch(e){var b=atob(b64);bytes=new Uint8Array(b.length);for(var i=0;i<b.length;i++)bytes[i]=b.charCodeAt(i);}
  if(typeof DecompressionStream==="undefined")throw new Error("this browser has no DecompressionStream (Chrome 80+, Firefox 113+, Safari 16.4+ have it)");
  var stream=new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}
function parseHash(){
  var st={run:null,q:"",gold:"",c:"",d:false,p:0,g:{},sys:null};
  location.hash.replace(/^#/,"").split("&").forEach(function(kv){
    if(!kv)return;var i=kv.indexOf("="),k=decodeURIComponent(i<0?kv:kv.slice(0,i)),v=i<0?"":decodeURIComponent(kv.slice(i+1));
    if(k==="run")st.run=v;else if(k==="q")st.q=v;else if(k==="gold")st.gold=v;else if(k==="c")st.c=v;
    else if(k==="d")st.d=v==="1";else if(k==="p")st.p=Math.max(0,parseInt(v,10)-1||0);
    else if(k==="sys")st.sys=v?v.split(","):[];else if(k.slice(0,2)==="g.")st.g[k.slice(2)]=v;});
  return st;
}
function writeHash(){
  var parts=["run="+encodeURIComponent(state.run)];
  if(state.q)parts.push("q="+encodeURIComponent(state.q));
  if(state.gold)parts.push("gold="+encodeURIComponent(state.gold));
  Object.keys(state.g).forEach(function(k){if(state.g[k])parts.push("g."+encodeURIComponent(k)+"="+encodeURIComponent(state.g[k]));});
  if(state.c)parts.push("c="+state.c);if(state.d)parts.push("d=1");
  if(state.sys)parts.push("sys="+state.sys.map(encodeURIComponent).join(","));
  if(state.p)parts.push("p="+(state.p+1));
  // a page shown from a data: or blob: address (the report's frame) may not rewrite it
  try{history.replaceState(null,"","#"+parts.join("&"));}catch(e){}
}
function options(values,selected,all){
  return '<option value="">'+esc(all)+'</option>'+values.map(function(v){return '<option'+(v===selected?" selected":"")+' value="'+esc(v)+'">'+esc(v)+'</option>';}).join("");
}
function distinct(col){var seen={},out=[];for(var k=0;k<col.length;k++){var v=col[k];if(v>=0&&!seen[v]){seen[v]=1;out.push(S[v]);}}return out.sort();}
function shown(){return D.systems.map(function(s,i){return i;}).filter(function(i){return !state.sys||state.sys.indexOf(D.systems[i])>=0;});}
function matches(){
  var I=D.items,run=state.run==="all"?-1:D.runs.indexOf(state.run),out=[],sys=shown(),q=state.q.toLowerCase();
  var gold=state.gold?S.indexOf(state.gold):-2,gf=[];
  D.groups.forEach(function(g,j){if(state.g[g])gf.push([I.groups[j],S.indexOf(state.g[g])]);});
  if(q&&!low)low=S.map(function(t){return t.toLowerCase();});
  for(var k=0;k<I.id.length;k++){
    if(run>=0&&I.run[k]!==run)continue;
    if(gold!==-2&&I.gold[k]!==gold)continue;
    var ok=true;for(var j=0;j<gf.length;j++)if(gf[j][0][k]!==gf[j][1]){ok=false;break;}
    if(!ok)continue;
    var right=0,wrong=0,blank=0,reads={},nreads=0,has=0;
    for(var m=0;m<sys.length;m++){var o=D.outputs[sys[m]],c=o.correct[k];if(c===" ")continue;has++;
      if(c==="1")right++;else if(c==="0")wrong++;else blank++;
      var r=o.read[k];if(!(r in reads)){reads[r]=1;nreads++;}}
    if(!has)continue;
    if(state.c==="wrong"&&!wrong)continue;if(state.c==="right"&&(wrong||blank||!right))continue;
    if(state.c==="allwrong"&&(right||blank||!wrong))continue;if(state.c==="split"&&!(right&&wrong))continue;
    if(state.c==="none"&&!blank)continue;
    if(state.d&&nreads<2)continue;
    if(q){var hit=low[I.id[k]].indexOf(q)>=0||low[I.source[k]].indexOf(q)>=0||(I.reference[k]>=0&&low[I.reference[k]].indexOf(q)>=0);
      for(m=0;!hit&&m<sys.length;m++){var t=D.outputs[sys[m]].text[k];if(t>=0&&low[t].indexOf(q)>=0)hit=true;}
      if(!hit)continue;}
    out.push(k);}
  return out;
}
function cell(o,k){
  var c=o.correct[k];if(c===" ")return '<td class="sys none">no output</td>';
  var t=str(o.text[k]),r=str(o.read[k]),e=str(o.evidence[k]);
  return '<td class="sys">'+(t===null||t===""?'<span class="none">(empty)</span>':esc(t))+
    '<br><span class="read v'+c+'">'+esc(r||"nothing read")+'</span>'+(e?'<div class="ev">'+esc(e)+'</div>':"")+'</td>';
}
function render(){
  var rows=matches(),I=D.items,pages=Math.max(1,Math.ceil(rows.length/PAGE));
  // the systems shown that have an output of some matching item (not Apertium en-es in French)
  var sys=shown().filter(function(i){var c=D.outputs[i].correct;for(var j=0;j<rows.length;j++)if(c[rows[j]]!==" ")return true;return !rows.length;});
  if(state.p>=pages)state.p=pages-1;
  var sum=sys.map(function(i){var o=D.outputs[i],r=0,n=0;rows.forEach(function(k){var c=o.correct[k];if(c==="1"||c==="0"){n++;if(c==="1")r++;}});
    return '<span>'+esc(D.systems[i])+': <b>'+(n?(100*r/n).toFixed(1)+"%%":"–")+'</b> right of '+n+'</span>';}).join("");
  el("gmt-status").innerHTML='<b>'+rows.length+'</b> of '+I.id.length+' items · page '+(state.p+1)+' of '+pages+'<div class="summary">'+sum+'</div>';
  var head='<tr><th class="item">item</th>'+sys.map(function(i){return '<th class="sys">'+esc(D.systems[i])+'</th>';}).join("")+'</tr>';
  var body=rows.slice(state.p*PAGE,(state.p+1)*PAGE).map(function(k){
    var tags='<span class="tag">'+esc(D.runs[I.run[k]])+'</span>'+(I.gold[k]>=0&&S[I.gold[k]]?'<span class="tag">'+esc(D.gold_label)+': '+esc(S[I.gold[k]])+'</span>':"");
    D.groups.forEach(function(g,j){var v=I.groups[j][k];if(v>=0)tags+='<span class="tag">'+esc(g)+': '+esc(S[v])+'</span>';});
    var extra="";D.texts.forEach(function(t,j){var v=I.texts[j][k];if(v>=0)extra+='<div class="extra">'+esc(t)+': '+esc(S[v])+'</div>';});
    var ref=I.reference[k]>=0?'<div class="ref">gold: '+esc(S[I.reference[k]])+'</div>':"";
    return '<tr data-item="'+esc(S[I.id[k]])+'"><td class="item"><div class="id">'+esc(S[I.id[k]])+'</div><div class="src">'+esc(S[I.source[k]])+'</div>'+extra+ref+tags+'</td>'+
      sys.map(function(i){return cell(D.outputs[i],k);}).join("")+'</tr>';}).join("");
  el("gmt-table").innerHTML='<thead>'+head+'</thead><tbody>'+body+'</tbody>';
  el("gmt-prev").disabled=state.p===0;el("gmt-next").disabled=state.p>=pages-1;
  writeHash();
}
function filters(){
  var I=D.items,h='<label>run <select id="f-run">'+options(D.runs,state.run,"all").replace('value=""','value="all"')+'</select></label>';
  h+='<label>'+esc(D.gold_label)+' <select id="f-gold">'+options(distinct(I.gold).filter(function(v){return v!=="";}),state.gold,"any")+'</select></label>';
  D.groups.forEach(function(g,j){h+='<label>'+esc(g)+' <select data-group="'+esc(g)+'">'+options(distinct(I.groups[j]),state.g[g]||"","any")+'</select></label>';});
  h+='<label>correct <select id="f-c">'+[["","any"],["wrong","a system wrong"],["right","all right"],["allwrong","all wrong"],["split","right and wrong"],["none","no verdict"]].map(function(o){return '<option value="'+o[0]+'"'+(o[0]===state.c?" selected":"")+'>'+o[1]+'</option>';}).join("")+'</select></label>';
  h+='<label><input type="checkbox" id="f-d"'+(state.d?" checked":"")+'> systems disagree</label>';
  h+='<label>search <input id="f-q" size="18" value="'+esc(state.q)+'"></label>';
  h+='<span class="pager"><button id="gmt-prev">&lsaquo; prev</button><button id="gmt-next">next &rsaquo;</button></span>';
  h+='<div class="systems">systems: '+D.systems.map(function(s){return '<label><input type="checkbox" data-sys="'+esc(s)+'"'+(!state.sys||state.sys.indexOf(s)>=0?" checked":"")+'> '+esc(s)+'</label>';}).join("")+'</div>';
  el("gmt-filters").innerHTML=h;
  function again(){state.p=0;render();}
  el("f-run").onchange=function(){state.run=this.value;again();};
  el("f-gold").onchange=function(){state.gold=this.value;again();};
  el("f-c").onchange=function(){state.c=this.value;again();};
  el("f-d").onchange=function(){state.d=this.checked;again();};
  var timer;el("f-q").oninput=function(){var v=this.value;clearTimeout(timer);timer=setTimeout(function(){state.q=v;again();},200);};
  document.querySelectorAll("[data-group]").forEach(function(s){s.onchange=function(){state.g[s.dataset.group]=s.value;again();};});
  document.querySelectorAll("[data-sys]").forEach(function(c){c.onchange=function(){
    state.sys=Array.prototype.filter.call(document.querySelectorAll("[data-sys]"),function(x){return x.checked;}).map(function(x){return x.dataset.sys;});
    if(state.sys.length===D.systems.length)state.sys=null;again();};});
  el("gmt-prev").onclick=function(){state.p--;render();};
  el("gmt-next").onclick=function(){state.p++;render();};
}
load().then(function(data){
  if(data.format!==FORMAT)throw new Error("data format "+data.format+", page expects "+FORMAT);
  D=data;S=D.strings;state=parseHash();
  if(state.run!=="all"&&D.runs.indexOf(state.run)<0)state.run=D.runs[0];
  el("gmt-reading").textContent=D.reading;
  filters();render();
  document.body.dataset.renderMs=String(Math.round(performance.now()));
  document.body.dataset.state="ready";
}).catch(function(err){el("gmt-error").textContent="The explorer could not load its data: "+err.message;document.body.dataset.state="error";});
})();
"""  # noqa: E501 (a program of one-line functions, as the browser reads it)


def page(explorer: Explorer) -> str:
    """The explorer's HTML page."""
    title = f"{explorer.benchmark} · explorer"
    script = JS % {"data_id": DATA_ID, "format": FORMAT}
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head>\n"
        f"<body data-state=\"loading\"><header><h1>{html.escape(title)}</h1>"
        "<p class=\"reading\" id=\"gmt-reading\"></p><div class=\"filters\" id=\"gmt-filters\">"
        "</div><div class=\"status\" id=\"gmt-status\">Loading…</div></header>"
        "<div id=\"gmt-error\"></div><table id=\"gmt-table\"></table>\n"
        # the data: base64 has no '<', so the element cannot end early
        f"<script id=\"{DATA_ID}\" type=\"application/octet-stream\">{pack(encode(explorer))}"
        f"</script>\n<script>{script}</script></body></html>\n"
    )


def write_page(explorer: Explorer, path: str | Path) -> None:
    write_text(path, page(explorer))


def build_page(module: str, inputs: Mapping[str, Any], path: str | Path) -> None:
    """Workflow stage: a benchmark's explorer module (``read(**inputs) -> Explorer``) → its
    page."""
    explorer = importlib.import_module(module).read(**inputs)
    write_page(explorer, path)
    log.info("%s: %d items, %d systems → %s", explorer.benchmark, len(explorer.items),
             len(explorer.systems), path)
