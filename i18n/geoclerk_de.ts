<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
  <context>
    <name>GeoClerk</name>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="47" />
      <source>&amp;GeoClerk</source>
      <translation>&amp;GeoClerk</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="113" />
      <source>'{name}' holds no data GeoClerk can use; it was left out.</source>
      <translation>'{name}' enthält keine Daten, die GeoClerk nutzen kann; der Layer wurde weggelassen.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="244" />
      <source>A file or process operation failed: {detail}</source>
      <translation>Ein Datei- oder Prozessvorgang ist fehlgeschlagen: {detail}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="78" />
      <source>API key</source>
      <translation>API-Schlüssel</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="345" />
      <source>Also used, because the request names them: {names}</source>
      <translation>Ebenfalls verwendet, weil die Anfrage sie nennt: {names}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="90" />
      <source>Answer</source>
      <translation>Antwort</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="83" />
      <source>Architecture</source>
      <translation>Architektur</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="42" />
      <source>Ask GeoClerk</source>
      <translation>GeoClerk fragen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="133" />
      <source>Ask for an analysis, for example: buffer roads by 100 m</source>
      <translation>Fragen Sie nach einer Analyse, zum Beispiel: Straßen um 100 m puffern</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="79" />
      <source>Auto</source>
      <translation>Automatisch</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="76" />
      <source>Base URL</source>
      <translation>Basis-URL</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="113" />
      <source>Browse…</source>
      <translation>Durchsuchen…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="140" />
      <source>Cancel</source>
      <translation>Abbrechen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="204" />
      <source>Cancelled</source>
      <translation>Abgebrochen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="120" />
      <source>Choose a file</source>
      <translation>Datei wählen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="108" />
      <source>Clear</source>
      <translation>Leeren</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="79" />
      <source>Code</source>
      <translation>Code</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="84" />
      <source>Code worker</source>
      <translation>Code-Erzeugung</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="37" />
      <source>Connected, but no model is set. Available: {names}</source>
      <translation>Verbunden, aber kein Modell eingestellt. Verfügbar: {names}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="33" />
      <source>Connected, but the server has no model called '{model}'. Available: {names}</source>
      <translation>Verbunden, aber der Server hat kein Modell namens „{model}“. Verfügbar: {names}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="38" />
      <source>Connected. Model '{model}' is available.</source>
      <translation>Verbunden. Modell „{model}“ ist verfügbar.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="106" />
      <source>Copy</source>
      <translation>Kopieren</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="138" />
      <source>Copy command</source>
      <translation>Befehl kopieren</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="28" />
      <source>Could not reach {url}. Is the server running, and is the address right?</source>
      <translation>{url} ist nicht erreichbar. Läuft der Server, und stimmt die Adresse?</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="51" />
      <source>Describe an analysis in plain language, for example "buffer roads by 100 m". Standard requests run offline; others need a model configured in GeoClerk settings (or GEOCLERK_BASE_URL, GEOCLERK_MODEL and GEOCLERK_API_KEY for headless runs). With no input layers ticked, the project's layers are used. Without an output folder, the files go to a folder that stays: geoclerk_results next to a saved project, else geoclerk/results in the QGIS profile; the log and the OUTPUT_FOLDER output name it.</source>
      <translation>Beschreiben Sie eine Analyse in natürlicher Sprache, zum Beispiel „Straßen um 100 m puffern“. Standardanfragen laufen offline; andere brauchen ein in den GeoClerk-Einstellungen konfiguriertes Modell (oder GEOCLERK_BASE_URL, GEOCLERK_MODEL und GEOCLERK_API_KEY für Läufe ohne Oberfläche). Ist keine Eingabeebene angehakt, werden die Ebenen des Projekts verwendet. Ohne Ausgabeordner landen die Dateien in einem bleibenden Ordner: geoclerk_results neben einem gespeicherten Projekt, sonst geoclerk/results im QGIS-Profil; das Protokoll und die Ausgabe OUTPUT_FOLDER nennen ihn.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/review.py" line="26" />
      <source>Don't run</source>
      <translation>Nicht ausführen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="58" />
      <source>Forget the stored key</source>
      <translation>Gespeicherten Schlüssel löschen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="111" />
      <source>Forget the variables and data earlier code requests left in the sandbox</source>
      <translation>Die Variablen und Daten vergessen, die frühere Code-Anfragen in der Sandbox hinterlassen haben</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="79" />
      <source>Function</source>
      <translation>Funktion</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="53" />
      <source>GGUF model files (*.gguf)</source>
      <translation>GGUF-Modelldateien (*.gguf)</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="76" />
      <source>GeoClerk</source>
      <translation>GeoClerk</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="68" />
      <source>GeoClerk chat</source>
      <translation>GeoClerk-Chat</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="338" />
      <source>GeoClerk failed unexpectedly: {error}. Please report it with the GeoClerk log.</source>
      <translation>GeoClerk ist unerwartet fehlgeschlagen: {error}. Bitte melden Sie das mit dem GeoClerk-Protokoll.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="174" />
      <source>GeoClerk is ready.</source>
      <translation>GeoClerk ist bereit.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="129" />
      <source>GeoClerk needs Python packages that QGIS's Python lacks: {names}. Install them, or run:</source>
      <translation>GeoClerk braucht Python-Pakete, die QGIS' Python fehlen: {names}. Installieren Sie sie oder führen Sie aus:</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="167" />
      <source>GeoClerk needs Python packages that QGIS's Python lacks: {names}. Use the Install button in QGIS, or run: {command}</source>
      <translation>GeoClerk braucht Python-Pakete, die dem Python von QGIS fehlen: {names}. Verwenden Sie die Schaltfläche Installieren in QGIS oder führen Sie aus: {command}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/results.py" line="36" />
      <source>GeoClerk results</source>
      <translation>GeoClerk-Ergebnisse</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="32" />
      <source>GeoClerk settings</source>
      <translation>GeoClerk-Einstellungen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="69" />
      <source>GeoClerk settings…</source>
      <translation>GeoClerk-Einstellungen…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/review.py" line="20" />
      <source>GeoClerk wants to run this code in its sandbox, on copies of your layers.</source>
      <translation>GeoClerk möchte diesen Code in seiner Sandbox ausführen, auf Kopien Ihrer Layer.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="208" />
      <source>GeoClerk wrote a result it cannot read: {path}</source>
      <translation>GeoClerk hat ein Ergebnis geschrieben, das nicht lesbar ist: {path}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="179" />
      <source>GeoClerk: installing Python packages</source>
      <translation>GeoClerk: Python-Pakete werden installiert</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="69" />
      <source>Input layers</source>
      <translation>Eingabelayer</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="74" />
      <source>Input rasters</source>
      <translation>Eingabe-Raster</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="140" />
      <source>Install</source>
      <translation>Installieren</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="210" />
      <source>Installed {installed} (and {extra} packages they need) into {folder}.</source>
      <translation>{installed} (und {extra} Pakete, die sie brauchen) wurden in {folder} installiert.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="184" />
      <source>Installing the packages failed; nothing was changed: {detail} Run this in a terminal to see every step: {command}</source>
      <translation>Die Installation der Pakete ist fehlgeschlagen; nichts wurde verändert: {detail} Führen Sie dies im Terminal aus, um jeden Schritt zu sehen: {command}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="154" />
      <source>Installing…</source>
      <translation>Wird installiert…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/saved_models.py" line="65" />
      <source>It is in the Processing Toolbox under Models, and opens in the Model Designer.</source>
      <translation>Es steht im Processing-Werkzeugkasten unter Modelle und öffnet sich im Modellerstellungswerkzeug.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="74" />
      <source>Keep the conversation in the project file (no keys are saved)</source>
      <translation>Unterhaltung in der Projektdatei behalten (Schlüssel werden nicht gespeichert)</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="217" />
      <source>Kept QGIS's own {kept}.</source>
      <translation>Die eigenen Pakete von QGIS wurden beibehalten: {kept}.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="104" />
      <source>Layers in play</source>
      <translation>Beteiligte Layer</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="89" />
      <source>Maximum code repair attempts</source>
      <translation>Maximale Anzahl Code-Reparaturversuche</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="77" />
      <source>Model</source>
      <translation>Modell</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="79" />
      <source>Model file (GGUF)</source>
      <translation>Modelldatei (GGUF)</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="220" />
      <source>Newer copies of pure-Python packages QGIS's Python has: {newer}.</source>
      <translation>Neuere Kopien reiner Python-Pakete, die das Python von QGIS hat: {newer}.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="13" />
      <source>No base URL is set. Choose a provider preset or type the server's URL (ending in /v1).</source>
      <translation>Keine Basis-URL gesetzt. Wählen Sie eine Anbietervorlage oder geben Sie die Server-URL ein (endet auf /v1).</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="121" />
      <source>No input layers were given; using the project's layers: {names}</source>
      <translation>Keine Eingabeebenen angegeben; die Ebenen des Projekts werden verwendet: {names}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/saved_models.py" line="59" />
      <source>Not saved as a model: {reason}</source>
      <translation>Nicht als Modell gespeichert: {reason}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="113" />
      <source>Not what I meant — ask the model</source>
      <translation>Nicht das, was ich meinte – das Modell fragen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="214" />
      <source>Nothing needed installing.</source>
      <translation>Es musste nichts installiert werden.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="223" />
      <source>Open</source>
      <translation>Öffnen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="94" />
      <source>Open settings</source>
      <translation>Einstellungen öffnen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/question_card.py" line="42" />
      <source>Or type another name</source>
      <translation>Oder einen anderen Namen eingeben</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="87" />
      <source>Output folder</source>
      <translation>Ausgabeordner</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="61" />
      <source>Planner and worker</source>
      <translation>Planer und Ausführer</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/task.py" line="69" />
      <source>Preparing the router (first request only)…</source>
      <translation>Router wird vorbereitet (nur bei der ersten Anfrage)…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="75" />
      <source>Provider</source>
      <translation>Anbieter</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="90" />
      <source>Python for generated code</source>
      <translation>Python für generierten Code</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="368" />
      <source>QGIS could not open these results as layers: {names}</source>
      <translation>QGIS konnte diese Ergebnisse nicht als Layer öffnen: {names}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="229" />
      <source>QGIS's Python ({python}) could not be started: {detail}</source>
      <translation>Das Python von QGIS ({python}) ließ sich nicht starten: {detail}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="230" />
      <source>QGIS's Python ({python}) has no pip. Install pip for it (Debian and Ubuntu: apt install python3-pip) and press Install again.</source>
      <translation>Das Python von QGIS ({python}) hat kein pip. Installieren Sie pip dafür (Debian und Ubuntu: apt install python3-pip) und drücken Sie erneut Installieren.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="234" />
      <source>QGIS's Python has compiled packages too old for GeoClerk: {detail}. A second copy would shadow QGIS's own: update them with QGIS's package manager (OSGeo4W setup, apt, …) and press Install again.</source>
      <translation>Das Python von QGIS hat kompilierte Pakete, die für GeoClerk zu alt sind: {detail}. Eine zweite Kopie würde die von QGIS verdecken: Aktualisieren Sie sie mit der Paketverwaltung von QGIS (OSGeo4W-Setup, apt, …) und drücken Sie erneut Installieren.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="108" />
      <source>Re-run edited</source>
      <translation>Bearbeitet erneut ausführen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="91" />
      <source>Report (JSON)</source>
      <translation>Bericht (JSON)</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="64" />
      <source>Request</source>
      <translation>Anfrage</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="110" />
      <source>Reset sandbox</source>
      <translation>Sandbox zurücksetzen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="125" />
      <source>Result files: {folder}</source>
      <translation>Ergebnisdateien: {folder}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="83" />
      <source>Result layer</source>
      <translation>Ergebnislayer</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/review.py" line="18" />
      <source>Review generated code</source>
      <translation>Erzeugten Code prüfen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="79" />
      <source>Route</source>
      <translation>Route</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="149" />
      <source>Route for the next message: let the router decide, or force one</source>
      <translation>Route für die nächste Nachricht: den Router entscheiden lassen oder eine erzwingen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="58" />
      <source>Route forced: {route}</source>
      <translation>Route erzwungen: {route}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="87" />
      <source>Router confidence threshold</source>
      <translation>Konfidenzschwelle des Routers</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/review.py" line="25" />
      <source>Run</source>
      <translation>Ausführen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="66" />
      <source>Run clear standard requests offline, without a model (tier 0)</source>
      <translation>Eindeutige Standardanfragen offline ohne Modell ausführen (Stufe 0)</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="117" />
      <source>Save as model</source>
      <translation>Als Modell speichern</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="118" />
      <source>Save these steps as a Processing model that runs on other layers</source>
      <translation>Diese Schritte als Processing-Modell speichern, das auf anderen Layern läuft</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/saved_models.py" line="63" />
      <source>Saved as the Processing model '{name}' ({path}).</source>
      <translation>Als Processing-Modell „{name}“ gespeichert ({path}).</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="397" />
      <source>Selected {n} of {total} features in '{layer}' (a QGIS selection: say 'extract' or 'save' for a new layer).</source>
      <translation>{n} von {total} Objekten in '{layer}' ausgewählt (eine QGIS-Auswahl: für eine neue Ebene 'extrahiere' oder 'speichere' sagen).</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="153" />
      <source>Send</source>
      <translation>Senden</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="114" />
      <source>Send the same request to the model, without the no-model answer</source>
      <translation>Dieselbe Anfrage an das Modell senden, ohne die Antwort ohne Modell</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="113" />
      <source>Settings…</source>
      <translation>Einstellungen…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="232" />
      <source>Show code</source>
      <translation>Code anzeigen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="71" />
      <source>Show generated code before running it</source>
      <translation>Erzeugten Code vor dem Ausführen anzeigen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="99" />
      <source>Show tool calls</source>
      <translation>Werkzeugaufrufe anzeigen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="61" />
      <source>Single agent (ReAct)</source>
      <translation>Einzelner Agent (ReAct)</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="177" />
      <source>Something went wrong.</source>
      <translation>Etwas ist schiefgegangen.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="204" />
      <source>Starting the local model (a few seconds)…</source>
      <translation>Das lokale Modell wird gestartet (einige Sekunden)…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="89" />
      <source>Status</source>
      <translation>Status</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/results.py" line="119" />
      <source>Steps of: {request}</source>
      <translation>Schritte von: {request}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="93" />
      <source>Test connection</source>
      <translation>Verbindung testen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="201" />
      <source>Testing…</source>
      <translation>Wird getestet…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="17" />
      <source>The 'openai' package is missing. Install it from the message GeoClerk showed at start-up.</source>
      <translation>Das Paket „openai“ fehlt. Installieren Sie es über die Meldung, die GeoClerk beim Start angezeigt hat.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="257" />
      <source>The edited tool calls are not valid JSON: {error}</source>
      <translation>Die bearbeiteten Werkzeugaufrufe sind kein gültiges JSON: {error}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="242" />
      <source>The installed packages did not import: {detail}</source>
      <translation>Die installierten Pakete ließen sich nicht importieren: {detail}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="187" />
      <source>The key could not be stored: unlock or set up the QGIS authentication database (Settings &gt; Options &gt; Authentication) and try again.</source>
      <translation>Der Schlüssel konnte nicht gespeichert werden: Entsperren oder richten Sie die QGIS-Authentifizierungsdatenbank ein (Einstellungen &gt; Optionen &gt; Authentifizierung) und versuchen Sie es erneut.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="52" />
      <source>The local model {name} is running at {url}.</source>
      <translation>Das lokale Modell {name} läuft unter {url}.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="243" />
      <source>The new folder would shadow QGIS's own {detail}.</source>
      <translation>Der neue Ordner würde {detail} von QGIS verdecken.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="107" />
      <source>The request is empty. Describe what you want to do.</source>
      <translation>Die Anfrage ist leer. Beschreiben Sie, was Sie tun möchten.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="205" />
      <source>The request was cancelled. Nothing was added to the project.</source>
      <translation>Die Anfrage wurde abgebrochen. Dem Projekt wurde nichts hinzugefügt.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="30" />
      <source>The server answered with an error: {error}</source>
      <translation>Der Server antwortete mit einem Fehler: {error}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="24" />
      <source>The server answered, but {url} is not an OpenAI-compatible API. Check the URL; it usually ends in /v1.</source>
      <translation>Der Server antwortet, aber {url} ist keine OpenAI-kompatible API. Prüfen Sie die URL; sie endet meist auf /v1.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="22" />
      <source>The server refused the API key. Check the key (and that it belongs to this provider).</source>
      <translation>Der Server hat den API-Schlüssel abgelehnt. Prüfen Sie den Schlüssel (und ob er zu diesem Anbieter gehört).</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="273" />
      <source>The steps of the previous request, on '{new}' instead of '{old}'.</source>
      <translation>Die Schritte der vorigen Anfrage, auf '{new}' statt '{old}'.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="348" />
      <source>To serve it, open GeoClerk settings and set a model (for example Ollama at http://localhost:11434/v1), or rephrase so the tool and all its parameters are clear.</source>
      <translation>Um die Anfrage zu bearbeiten, öffnen Sie die GeoClerk-Einstellungen und legen ein Modell fest (zum Beispiel Ollama unter http://localhost:11434/v1), oder formulieren Sie so um, dass das Werkzeug und alle Parameter eindeutig sind.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="67" />
      <source>Trust those no-model answers (skip the model's one-round check)</source>
      <translation>Diesen Antworten ohne Modell vertrauen (die Prüfung durch das Modell überspringen)</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="151" />
      <source>Type a request and press Enter</source>
      <translation>Anfrage eingeben und Eingabetaste drücken</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="83" />
      <source>Working…</source>
      <translation>In Arbeit…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="220" />
      <source>Zoom to</source>
      <translation>Hinzoomen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="50" />
      <source>a .gguf file (empty: the model `make model` downloaded)</source>
      <translation>eine .gguf-Datei (leer: das Modell, das `make model` geladen hat)</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="56" />
      <source>a python executable (empty: the one found next to QGIS)</source>
      <translation>ein Python-Programm (leer: das neben QGIS gefundene)</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="266" />
      <source>a question</source>
      <translation>eine Frage</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="269" />
      <source>cancelled</source>
      <translation>abgebrochen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="44" />
      <source>chat</source>
      <translation>Chat</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="35" />
      <source>code</source>
      <translation>Code</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="43" />
      <source>code generation</source>
      <translation>Codeerzeugung</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="264" />
      <source>done</source>
      <translation>fertig</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="268" />
      <source>error</source>
      <translation>Fehler</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="42" />
      <source>function</source>
      <translation>Funktion</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="35" />
      <source>functions</source>
      <translation>Funktionen</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="80" />
      <source>llama-server</source>
      <translation>llama-server</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="52" />
      <source>llama-server program (empty: the built one, or the one on PATH)</source>
      <translation>llama-server-Programm (leer: das gebaute oder das im PATH)</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="51" />
      <source>llama-server started but does not answer; see {log}.</source>
      <translation>llama-server wurde gestartet, antwortet aber nicht; siehe {log}.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="265" />
      <source>needs a model</source>
      <translation>braucht ein Modell</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="286" />
      <source>no model calls</source>
      <translation>keine Modellaufrufe</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="47" />
      <source>not needed for local servers</source>
      <translation>für lokale Server nicht nötig</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="35" />
      <source>offline</source>
      <translation>offline</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="241" />
      <source>pip failed: {detail}</source>
      <translation>pip ist fehlgeschlagen: {detail}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="239" />
      <source>pip found no versions that work with the packages QGIS's Python has: {detail}</source>
      <translation>pip fand keine Versionen, die zu den Paketen im Python von QGIS passen: {detail}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="240" />
      <source>pip wanted to replace QGIS's own {detail}.</source>
      <translation>pip wollte {detail} von QGIS ersetzen.</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="267" />
      <source>rejected</source>
      <translation>abgelehnt</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="45" />
      <source>stored in the QGIS authentication database</source>
      <translation>in der QGIS-Authentifizierungsdatenbank gespeichert</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="279" />
      <source>{calls} model calls, {prompt} + {completion} tokens</source>
      <translation>{calls} Modellaufrufe, {prompt} + {completion} Tokens</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="276" />
      <source>{ms:.0f} ms</source>
      <translation>{ms:.0f} ms</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="44" />
      <source>{name} (missing, need &gt;= {minimum})</source>
      <translation>{name} (fehlt, benötigt &gt;= {minimum})</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="45" />
      <source>{name} {found} (too old, need &gt;= {minimum})</source>
      <translation>{name} {found} (zu alt, benötigt &gt;= {minimum})</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="40" />
      <source>{name} {found} in GeoClerk's folder shadows QGIS's {name} {own}</source>
      <translation>{name} {found} im Ordner von GeoClerk verdeckt {name} {own} von QGIS</translation>
    </message>
  </context>
</TS>
