<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
      <translation>“{name}”不含 GeoClerk 可用的数据，已略过。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="244" />
      <source>A file or process operation failed: {detail}</source>
      <translation>文件或进程操作失败：{detail}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="78" />
      <source>API key</source>
      <translation>API 密钥</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="345" />
      <source>Also used, because the request names them: {names}</source>
      <translation>另外使用了请求中提到的图层：{names}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="90" />
      <source>Answer</source>
      <translation>回答</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="83" />
      <source>Architecture</source>
      <translation>架构</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="42" />
      <source>Ask GeoClerk</source>
      <translation>询问 GeoClerk</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="133" />
      <source>Ask for an analysis, for example: buffer roads by 100 m</source>
      <translation>用自然语言提出分析需求，例如：将道路缓冲 100 米</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="79" />
      <source>Auto</source>
      <translation>自动</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="76" />
      <source>Base URL</source>
      <translation>基础 URL</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="113" />
      <source>Browse…</source>
      <translation>浏览…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="140" />
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="204" />
      <source>Cancelled</source>
      <translation>已取消</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="120" />
      <source>Choose a file</source>
      <translation>选择文件</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="108" />
      <source>Clear</source>
      <translation>清空</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="79" />
      <source>Code</source>
      <translation>代码</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="84" />
      <source>Code worker</source>
      <translation>代码生成</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="37" />
      <source>Connected, but no model is set. Available: {names}</source>
      <translation>已连接，但尚未设置模型。可用模型：{names}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="33" />
      <source>Connected, but the server has no model called '{model}'. Available: {names}</source>
      <translation>已连接，但服务器上没有名为“{model}”的模型。可用模型：{names}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="38" />
      <source>Connected. Model '{model}' is available.</source>
      <translation>已连接。模型“{model}”可用。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="106" />
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="138" />
      <source>Copy command</source>
      <translation>复制命令</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="28" />
      <source>Could not reach {url}. Is the server running, and is the address right?</source>
      <translation>无法连接到 {url}。服务器是否已启动？地址是否正确？</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="51" />
      <source>Describe an analysis in plain language, for example "buffer roads by 100 m". Standard requests run offline; others need a model configured in GeoClerk settings (or GEOCLERK_BASE_URL, GEOCLERK_MODEL and GEOCLERK_API_KEY for headless runs). With no input layers ticked, the project's layers are used. Without an output folder, the files go to a folder that stays: geoclerk_results next to a saved project, else geoclerk/results in the QGIS profile; the log and the OUTPUT_FOLDER output name it.</source>
      <translation>用自然语言描述分析，例如“将道路缓冲 100 米”。标准请求可离线运行；其他请求需要在 GeoClerk 设置中配置模型（无界面运行时可使用 GEOCLERK_BASE_URL、GEOCLERK_MODEL 和 GEOCLERK_API_KEY 环境变量）。未勾选输入图层时，使用项目中的图层。未指定输出文件夹时，文件保存在一个不会被删除的文件夹中：已保存项目旁的 geoclerk_results，否则为 QGIS 配置文件中的 geoclerk/results；日志和 OUTPUT_FOLDER 输出会给出其路径。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/review.py" line="26" />
      <source>Don't run</source>
      <translation>不运行</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="58" />
      <source>Forget the stored key</source>
      <translation>删除已保存的密钥</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="111" />
      <source>Forget the variables and data earlier code requests left in the sandbox</source>
      <translation>清除之前的代码请求在沙盒中留下的变量和数据</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="79" />
      <source>Function</source>
      <translation>函数</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="53" />
      <source>GGUF model files (*.gguf)</source>
      <translation>GGUF 模型文件 (*.gguf)</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="76" />
      <source>GeoClerk</source>
      <translation>GeoClerk</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="68" />
      <source>GeoClerk chat</source>
      <translation>GeoClerk 对话</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="338" />
      <source>GeoClerk failed unexpectedly: {error}. Please report it with the GeoClerk log.</source>
      <translation>GeoClerk 意外出错：{error}。请附上 GeoClerk 日志报告此问题。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="174" />
      <source>GeoClerk is ready.</source>
      <translation>GeoClerk 已就绪。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="129" />
      <source>GeoClerk needs Python packages that QGIS's Python lacks: {names}. Install them, or run:</source>
      <translation>GeoClerk 需要 QGIS 的 Python 缺少的 Python 包：{names}。请安装它们，或运行：</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="167" />
      <source>GeoClerk needs Python packages that QGIS's Python lacks: {names}. Use the Install button in QGIS, or run: {command}</source>
      <translation>GeoClerk 需要 QGIS 的 Python 中缺少的软件包：{names}。请在 QGIS 中使用“安装”按钮，或运行：{command}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/results.py" line="36" />
      <source>GeoClerk results</source>
      <translation>GeoClerk 结果</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="32" />
      <source>GeoClerk settings</source>
      <translation>GeoClerk 设置</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="69" />
      <source>GeoClerk settings…</source>
      <translation>GeoClerk 设置…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/review.py" line="20" />
      <source>GeoClerk wants to run this code in its sandbox, on copies of your layers.</source>
      <translation>GeoClerk 想在沙箱中、基于您图层的副本运行这段代码。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="208" />
      <source>GeoClerk wrote a result it cannot read: {path}</source>
      <translation>GeoClerk 写出的结果无法读取：{path}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="179" />
      <source>GeoClerk: installing Python packages</source>
      <translation>GeoClerk：正在安装 Python 软件包</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="69" />
      <source>Input layers</source>
      <translation>输入图层</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="74" />
      <source>Input rasters</source>
      <translation>输入栅格</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="140" />
      <source>Install</source>
      <translation>安装</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="210" />
      <source>Installed {installed} (and {extra} packages they need) into {folder}.</source>
      <translation>已将 {installed}（以及它们所需的 {extra} 个软件包）安装到 {folder}。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="184" />
      <source>Installing the packages failed; nothing was changed: {detail} Run this in a terminal to see every step: {command}</source>
      <translation>安装软件包失败，未做任何更改：{detail} 请在终端中运行以下命令查看每个步骤：{command}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/plugin.py" line="154" />
      <source>Installing…</source>
      <translation>正在安装…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/saved_models.py" line="65" />
      <source>It is in the Processing Toolbox under Models, and opens in the Model Designer.</source>
      <translation>它位于处理工具箱的“模型”下，可在模型设计器中打开。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="74" />
      <source>Keep the conversation in the project file (no keys are saved)</source>
      <translation>在项目文件中保存对话（不会保存任何密钥）</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="217" />
      <source>Kept QGIS's own {kept}.</source>
      <translation>保留了 QGIS 自带的 {kept}。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="104" />
      <source>Layers in play</source>
      <translation>参与分析的图层</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="89" />
      <source>Maximum code repair attempts</source>
      <translation>代码修复的最大尝试次数</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="77" />
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="79" />
      <source>Model file (GGUF)</source>
      <translation>模型文件（GGUF）</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="220" />
      <source>Newer copies of pure-Python packages QGIS's Python has: {newer}.</source>
      <translation>QGIS 的 Python 已有的纯 Python 软件包的较新副本：{newer}。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="13" />
      <source>No base URL is set. Choose a provider preset or type the server's URL (ending in /v1).</source>
      <translation>尚未设置基础 URL。请选择服务商预设，或输入服务器地址（以 /v1 结尾）。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="121" />
      <source>No input layers were given; using the project's layers: {names}</source>
      <translation>未指定输入图层；使用项目中的图层：{names}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/saved_models.py" line="59" />
      <source>Not saved as a model: {reason}</source>
      <translation>未保存为模型：{reason}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="113" />
      <source>Not what I meant — ask the model</source>
      <translation>不是我想要的——询问模型</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="214" />
      <source>Nothing needed installing.</source>
      <translation>无需安装任何软件包。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="223" />
      <source>Open</source>
      <translation>打开</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="94" />
      <source>Open settings</source>
      <translation>打开设置</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/question_card.py" line="42" />
      <source>Or type another name</source>
      <translation>或输入其他名称</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="87" />
      <source>Output folder</source>
      <translation>输出文件夹</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="61" />
      <source>Planner and worker</source>
      <translation>规划者与执行者</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/task.py" line="69" />
      <source>Preparing the router (first request only)…</source>
      <translation>正在准备路由器（仅首次请求）…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="75" />
      <source>Provider</source>
      <translation>服务商</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="90" />
      <source>Python for generated code</source>
      <translation>生成代码的 Python</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="368" />
      <source>QGIS could not open these results as layers: {names}</source>
      <translation>QGIS 无法将这些结果作为图层打开：{names}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="229" />
      <source>QGIS's Python ({python}) could not be started: {detail}</source>
      <translation>无法启动 QGIS 的 Python（{python}）：{detail}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="230" />
      <source>QGIS's Python ({python}) has no pip. Install pip for it (Debian and Ubuntu: apt install python3-pip) and press Install again.</source>
      <translation>QGIS 的 Python（{python}）没有 pip。请为其安装 pip（Debian 和 Ubuntu：apt install python3-pip），然后再次点击“安装”。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="234" />
      <source>QGIS's Python has compiled packages too old for GeoClerk: {detail}. A second copy would shadow QGIS's own: update them with QGIS's package manager (OSGeo4W setup, apt, …) and press Install again.</source>
      <translation>QGIS 的 Python 中有对 GeoClerk 来说过旧的已编译软件包：{detail}。再装一份会遮蔽 QGIS 自带的版本：请用 QGIS 的软件包管理器（OSGeo4W 安装程序、apt 等）更新它们，然后再次点击“安装”。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="108" />
      <source>Re-run edited</source>
      <translation>运行修改后的版本</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="91" />
      <source>Report (JSON)</source>
      <translation>报告（JSON）</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="64" />
      <source>Request</source>
      <translation>请求</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="110" />
      <source>Reset sandbox</source>
      <translation>重置沙盒</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="125" />
      <source>Result files: {folder}</source>
      <translation>结果文件：{folder}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="83" />
      <source>Result layer</source>
      <translation>结果图层</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/review.py" line="18" />
      <source>Review generated code</source>
      <translation>审查生成的代码</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="79" />
      <source>Route</source>
      <translation>路由</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="149" />
      <source>Route for the next message: let the router decide, or force one</source>
      <translation>下一条消息的路由：由路由器决定，或强制指定</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="58" />
      <source>Route forced: {route}</source>
      <translation>已强制路由：{route}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="87" />
      <source>Router confidence threshold</source>
      <translation>路由置信度阈值</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/review.py" line="25" />
      <source>Run</source>
      <translation>运行</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="66" />
      <source>Run clear standard requests offline, without a model (tier 0)</source>
      <translation>明确的标准请求离线运行，无需模型（第 0 层）</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="117" />
      <source>Save as model</source>
      <translation>另存为模型</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="118" />
      <source>Save these steps as a Processing model that runs on other layers</source>
      <translation>将这些步骤保存为可在其他图层上运行的处理模型</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/saved_models.py" line="63" />
      <source>Saved as the Processing model '{name}' ({path}).</source>
      <translation>已保存为处理模型“{name}”（{path}）。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="397" />
      <source>Selected {n} of {total} features in '{layer}' (a QGIS selection: say 'extract' or 'save' for a new layer).</source>
      <translation>已在“{layer}”中选中 {total} 个要素中的 {n} 个（QGIS 选择；如需新图层，请说“提取”或“保存”）。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="153" />
      <source>Send</source>
      <translation>发送</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="114" />
      <source>Send the same request to the model, without the no-model answer</source>
      <translation>将同一请求发送给模型，不使用无模型的回答</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="113" />
      <source>Settings…</source>
      <translation>设置…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="232" />
      <source>Show code</source>
      <translation>显示代码</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="71" />
      <source>Show generated code before running it</source>
      <translation>运行前显示生成的代码</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="99" />
      <source>Show tool calls</source>
      <translation>显示工具调用</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="61" />
      <source>Single agent (ReAct)</source>
      <translation>单智能体（ReAct）</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="177" />
      <source>Something went wrong.</source>
      <translation>出现了问题。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="204" />
      <source>Starting the local model (a few seconds)…</source>
      <translation>正在启动本地模型（需要几秒钟）…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="89" />
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/results.py" line="119" />
      <source>Steps of: {request}</source>
      <translation>步骤：{request}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="93" />
      <source>Test connection</source>
      <translation>测试连接</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="201" />
      <source>Testing…</source>
      <translation>正在测试…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="17" />
      <source>The 'openai' package is missing. Install it from the message GeoClerk showed at start-up.</source>
      <translation>缺少“openai”软件包。请通过 GeoClerk 启动时显示的消息安装。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="257" />
      <source>The edited tool calls are not valid JSON: {error}</source>
      <translation>修改后的工具调用不是有效的 JSON：{error}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="242" />
      <source>The installed packages did not import: {detail}</source>
      <translation>已安装的软件包无法导入：{detail}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="187" />
      <source>The key could not be stored: unlock or set up the QGIS authentication database (Settings &gt; Options &gt; Authentication) and try again.</source>
      <translation>无法保存密钥：请解锁或设置 QGIS 认证数据库（设置 &gt; 选项 &gt; 认证）后重试。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="52" />
      <source>The local model {name} is running at {url}.</source>
      <translation>本地模型 {name} 正在 {url} 运行。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="243" />
      <source>The new folder would shadow QGIS's own {detail}.</source>
      <translation>新文件夹会遮蔽 QGIS 自带的 {detail}。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/algorithm.py" line="107" />
      <source>The request is empty. Describe what you want to do.</source>
      <translation>请求为空。请描述您想做什么。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="205" />
      <source>The request was cancelled. Nothing was added to the project.</source>
      <translation>请求已取消，项目中没有添加任何内容。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="30" />
      <source>The server answered with an error: {error}</source>
      <translation>服务器返回错误：{error}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="24" />
      <source>The server answered, but {url} is not an OpenAI-compatible API. Check the URL; it usually ends in /v1.</source>
      <translation>服务器有响应，但 {url} 不是兼容 OpenAI 的 API。请检查 URL，它通常以 /v1 结尾。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="22" />
      <source>The server refused the API key. Check the key (and that it belongs to this provider).</source>
      <translation>服务器拒绝了该 API 密钥。请检查密钥（以及它是否属于该服务商）。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="273" />
      <source>The steps of the previous request, on '{new}' instead of '{old}'.</source>
      <translation>上一个请求的步骤，用于“{new}”而不是“{old}”。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="348" />
      <source>To serve it, open GeoClerk settings and set a model (for example Ollama at http://localhost:11434/v1), or rephrase so the tool and all its parameters are clear.</source>
      <translation>如需处理此请求，请打开 GeoClerk 设置并配置模型（例如位于 http://localhost:11434/v1 的 Ollama），或换一种说法，明确工具及其全部参数。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="67" />
      <source>Trust those no-model answers (skip the model's one-round check)</source>
      <translation>信任这些无模型回答（跳过模型的一轮核对）</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dock.py" line="151" />
      <source>Type a request and press Enter</source>
      <translation>输入请求并按回车</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="83" />
      <source>Working…</source>
      <translation>处理中…</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="220" />
      <source>Zoom to</source>
      <translation>缩放至</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="50" />
      <source>a .gguf file (empty: the model `make model` downloaded)</source>
      <translation>一个 .gguf 文件（留空：使用 `make model` 下载的模型）</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="56" />
      <source>a python executable (empty: the one found next to QGIS)</source>
      <translation>Python 可执行文件（留空：使用在 QGIS 旁找到的）</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="266" />
      <source>a question</source>
      <translation>一个问题</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="269" />
      <source>cancelled</source>
      <translation>已取消</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="44" />
      <source>chat</source>
      <translation>对话</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="35" />
      <source>code</source>
      <translation>代码</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="43" />
      <source>code generation</source>
      <translation>代码生成</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="264" />
      <source>done</source>
      <translation>完成</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="268" />
      <source>error</source>
      <translation>错误</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="42" />
      <source>function</source>
      <translation>函数</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="35" />
      <source>functions</source>
      <translation>函数</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="80" />
      <source>llama-server</source>
      <translation>llama-server</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="52" />
      <source>llama-server program (empty: the built one, or the one on PATH)</source>
      <translation>llama-server 程序（留空：使用已构建的或 PATH 中的）</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/connection.py" line="51" />
      <source>llama-server started but does not answer; see {log}.</source>
      <translation>llama-server 已启动但没有响应；请查看 {log}。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="265" />
      <source>needs a model</source>
      <translation>需要模型</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="286" />
      <source>no model calls</source>
      <translation>未调用模型</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="47" />
      <source>not needed for local servers</source>
      <translation>本地服务器无需密钥</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="35" />
      <source>offline</source>
      <translation>离线</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="241" />
      <source>pip failed: {detail}</source>
      <translation>pip 运行失败：{detail}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="239" />
      <source>pip found no versions that work with the packages QGIS's Python has: {detail}</source>
      <translation>pip 找不到与 QGIS 的 Python 中已有软件包兼容的版本：{detail}</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="240" />
      <source>pip wanted to replace QGIS's own {detail}.</source>
      <translation>pip 试图替换 QGIS 自带的 {detail}。</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="267" />
      <source>rejected</source>
      <translation>已拒绝</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/settings_dialog.py" line="45" />
      <source>stored in the QGIS authentication database</source>
      <translation>已保存在 QGIS 认证数据库中</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="279" />
      <source>{calls} model calls, {prompt} + {completion} tokens</source>
      <translation>{calls} 次模型调用，{prompt} + {completion} 个词元</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/messages.py" line="276" />
      <source>{ms:.0f} ms</source>
      <translation>{ms:.0f} 毫秒</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="44" />
      <source>{name} (missing, need &gt;= {minimum})</source>
      <translation>{name}（缺失，需要 &gt;= {minimum}）</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="45" />
      <source>{name} {found} (too old, need &gt;= {minimum})</source>
      <translation>{name} {found}（版本过旧，需要 &gt;= {minimum}）</translation>
    </message>
    <message>
      <location filename="../geoclerk_plugin/dependencies.py" line="40" />
      <source>{name} {found} in GeoClerk's folder shadows QGIS's {name} {own}</source>
      <translation>GeoClerk 文件夹中的 {name} {found} 遮蔽了 QGIS 自带的 {name} {own}</translation>
    </message>
  </context>
</TS>
